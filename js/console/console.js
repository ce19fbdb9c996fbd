/*
 * The StateHub console (docs/console.md). Classic script, loaded after the store runtime
 * (/runtime/pinia-*.js). The page's state lives in three stores on that runtime; the DOM is
 * rendered from each store's $subscribe. Every action is one request of the admin API.
 */
(function () {
  'use strict';

  setActivePinia(createPinia());

  // The admin token: this closure only. Never in a store (inspectable), storage, a cookie or a URL.
  var token = null;

  function byId(id) { return document.getElementById(id); }

  /** One request; resolves to { status, headers, body } (body parsed when JSON), never rejects on HTTP status. */
  function request(method, path, body, options) {
    var headers = {};
    if (token !== null && !(options && options.anonymous)) headers.Authorization = 'Bearer ' + token;
    if (body !== undefined) headers['Content-Type'] = (options && options.contentType) || 'application/json';
    if (options && options.ifMatch) headers['If-Match'] = options.ifMatch;
    return fetch(path, { method: method, headers: headers, body: body, cache: 'no-store', credentials: 'omit' })
      .then(function (response) {
        return response.text().then(function (text) {
          var parsed = text;
          if ((response.headers.get('Content-Type') || '').indexOf('application/json') === 0 && text) {
            try { parsed = JSON.parse(text); } catch (error) { parsed = text; }
          }
          // A token revoked while signed in (DELETE /admin/tokens/{id}): forget it and sign out.
          if (response.status === 401 && headers.Authorization && useSession().signedIn) {
            useSession().refuse('The server no longer accepts this token: sign in again.');
          }
          return { status: response.status, headers: response.headers, body: parsed };
        });
      });
  }

  /** A sentence for a failed answer: the server's own error code and message. */
  function failure(answer) {
    var body = answer.body;
    if (body && typeof body === 'object' && body.error) {
      // Every problem the server listed (an upload's per-asset ones), each with its path.
      var problems = Array.isArray(body.problems) ? body.problems.map(function (problem) {
        return (problem.path ? problem.path + ': ' : '') + problem.message;
      }) : [];
      return answer.status + ' ' + body.error + ': ' + body.message + (problems.length ? ' — ' + problems.join('; ') : '');
    }
    return 'the server answered ' + answer.status;
  }

  /**
   * Sets top-level state in one notification, replacing objects whole: `$patch(object)` merges
   * nested objects and never deletes a key (a lifted pin would stay in `detail`).
   */
  function replace(store, values) {
    store.$patch(function (state) { Object.keys(values).forEach(function (key) { state[key] = values[key]; }); });
  }

  /** What the page keeps of a /themes/current answer: its version and ETag. */
  function summary(current) { return current ? { version: current.version, etag: current.etag } : null; }

  /** Every leaf of a JSON value by its path (`colors.primary`, `list[0]`), in document order. */
  function leaves(value, path, into) {
    if (value !== null && typeof value === 'object') {
      var keys = Object.keys(value);
      if (keys.length === 0) into.push([path, JSON.stringify(value)]);
      keys.forEach(function (key) {
        leaves(value[key], Array.isArray(value) ? path + '[' + key + ']' : (path ? path + '.' : '') + key, into);
      });
    } else {
      into.push([path, JSON.stringify(value)]);
    }
    return into;
  }

  /** The changes from `published` to `theme`, path by path: changed and added in the new theme's order, then removed. */
  function themeDiff(published, theme) {
    var before = new Map(leaves(published, '', []));
    var after = leaves(theme, '', []);
    var changes = [];
    var seen = new Set();
    after.forEach(function (pair) {
      seen.add(pair[0]);
      if (!before.has(pair[0])) changes.push({ path: pair[0], kind: 'added', before: null, after: pair[1] });
      else if (before.get(pair[0]) !== pair[1]) changes.push({ path: pair[0], kind: 'changed', before: before.get(pair[0]), after: pair[1] });
    });
    before.forEach(function (value, path) {
      if (!seen.has(path)) changes.push({ path: path, kind: 'removed', before: value, after: null });
    });
    return changes;
  }

  function when(seconds) { return seconds ? new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '—'; }
  function bytes(count) { return count < 1024 ? count + ' B' : (count / 1024).toFixed(1) + ' KiB'; }

  // MARK: Stores

  var useSession = defineStore('session', {
    state: function () { return { signedIn: false, screen: 'themes', message: '', refused: false }; },
    actions: {
      signIn: function (candidate) {
        var self = this;
        token = candidate;
        return request('GET', '/admin/console/apps').then(function (answer) {
          if (answer.status === 200) {
            self.$patch({ signedIn: true, message: '', refused: false, screen: 'themes' });
            useApps().receive(answer.body);
            useThemes().loadPublished();
          } else {
            token = null;
            self.$patch({ signedIn: false, refused: answer.status === 401,
              message: answer.status === 401 ? 'The server refused this token.' : 'Could not sign in: ' + failure(answer) });
          }
        }, function (error) {
          token = null;
          self.message = 'Could not reach the server: ' + error.message;
        });
      },
      signOut: function () {
        token = null;
        this.$patch({ signedIn: false, message: 'Signed out.', refused: false });
      },
      refuse: function (message) {
        token = null;
        this.$patch({ signedIn: false, message: message, refused: true });
      },
      show: function (screen) { this.screen = screen; }
    }
  });

  var useThemes = defineStore('themes', {
    state: function () {
      return { text: '', check: null, checkedText: '', status: '', failed: false, published: [], current: null, previous: null, diff: null };
    },
    getters: {
      canPublish: function (state) { return !!(state.check && state.check.valid && state.checkedText === state.text); }
    },
    actions: {
      runCheck: function () {
        var self = this;
        var text = this.text;
        this.$patch({ status: 'Checking…', failed: false });
        return request('POST', '/admin/console/theme-check', text).then(function (answer) {
          if (answer.status !== 200) { replace(self, { status: failure(answer), failed: true, check: null }); return; }
          var check = answer.body;
          var errors = check.problems.filter(function (p) { return p.severity === 'error'; }).length;
          replace(self, {
            check: check, checkedText: text, failed: !check.valid, diff: null,
            status: check.valid
              ? 'Theme ' + check.version + ' is valid (' + check.problems.length + ' warning(s)). Preview below.'
              : 'The theme has ' + errors + ' error(s) and ' + (check.problems.length - errors) + ' warning(s).'
          });
          if (check.valid) return self.compare(text, check.version.split('.')[0]);
        });
      },
      /** Compares a valid theme with the one /themes/current answers for its major version. */
      compare: function (text, major) {
        var self = this;
        return this.currentOf(major).then(function (published) {
          if (self.checkedText !== text) return;
          self.diff = published
            ? { against: published.version, changes: themeDiff(published.body, JSON.parse(text)) }
            : { against: null, changes: [] };
        });
      },
      currentOf: function (major) {
        return request('GET', '/themes/current?nativeVersion=' + major + '.0.0', undefined, { anonymous: true }).then(function (answer) {
          if (answer.status !== 200) return null;
          return { version: answer.body.metadata && answer.body.metadata.version, etag: answer.headers.get('ETag'), body: answer.body };
        });
      },
      publish: function () {
        var self = this;
        if (!this.canPublish) return Promise.resolve();
        var version = this.check.version;
        var major = version.split('.')[0];
        var text = this.checkedText;
        var previous;
        this.$patch({ status: 'Publishing ' + version + '…', failed: false });
        return this.currentOf(major).then(function (before) {
          previous = before;
          return request('PUT', '/admin/themes/' + encodeURIComponent(version), text);
        }).then(function (answer) {
          if (answer.status !== 200 && answer.status !== 201) throw new Error(failure(answer));
          return request('POST', '/admin/themes/' + encodeURIComponent(version) + '/publish');
        }).then(function (answer) {
          if (answer.status !== 200) throw new Error(failure(answer));
          return self.currentOf(major);
        }).then(function (after) {
          replace(self, { previous: summary(previous), current: summary(after), failed: false,
            status: 'Published ' + version + '. /themes/current for major ' + major + ' now answers ' +
              (after ? after.version + ' with ETag ' + after.etag : 'nothing') + '.' });
          return self.loadPublished();
        }).catch(function (error) { self.$patch({ status: 'Publishing failed: ' + error.message, failed: true }); });
      },
      /** Publishes or unpublishes an uploaded theme; unpublishing the current one is the theme rollback. */
      setPublished: function (version, published) {
        var self = this;
        var major = version.split('.')[0];
        var previous;
        this.$patch({ status: (published ? 'Publishing ' : 'Unpublishing ') + version + '…', failed: false });
        return this.currentOf(major).then(function (before) {
          previous = before;
          return request('POST', '/admin/themes/' + encodeURIComponent(version) + (published ? '/publish' : '/unpublish'));
        }).then(function (answer) {
          if (answer.status !== 200) throw new Error(failure(answer));
          return self.currentOf(major);
        }).then(function (after) {
          replace(self, { previous: summary(previous), current: summary(after), failed: false,
            status: (published ? 'Published ' : 'Unpublished ') + version + '. /themes/current for major ' + major + ' now answers ' +
              (after ? after.version + ' with ETag ' + after.etag : 'nothing (404)') + '.' });
          return self.loadPublished();
        }).catch(function (error) { self.$patch({ status: error.message, failed: true }); });
      },
      /**
       * What /themes/current would answer for the major of `version` once it is (un)published,
       * from the history (newest version first, as the server orders it): the first published one
       * of that major. `null`: nothing (a 404 for shells of that major).
       */
      outcome: function (version, published) {
        var major = version.split('.')[0];
        var next = this.published.filter(function (theme) {
          return theme.major === Number(major) && (theme.version === version ? published : theme.published);
        })[0];
        return next ? next.version : null;
      },
      loadPublished: function () {
        var self = this;
        return request('GET', '/admin/console/themes').then(function (answer) {
          if (answer.status === 200) self.published = answer.body;
        });
      }
    }
  });

  var useApps = defineStore('apps', {
    state: function () {
      // `tag`: the release's ETag as last read, sent back as If-Match by a rollback. `filledTag`: the
      // ETag of the release the editor was filled from, sent as If-Match by a save, so a save never
      // writes over a release the editor did not show (a re-read moves `tag`, not the editor).
      return { list: [], selected: '', detail: null, tag: null, filledTag: null, versions: [], releases: [], status: '', failed: false, answer: null };
    },
    actions: {
      receive: function (list) {
        this.list = list;
        var names = list.map(function (app) { return app.name; });
        if (names.indexOf(this.selected) < 0) this.selected = names.length ? names[0] : '';
        if (this.selected) return this.select(this.selected);
      },
      reload: function () {
        var self = this;
        return request('GET', '/admin/console/apps').then(function (answer) {
          if (answer.status === 200) return self.receive(answer.body);
          self.$patch({ status: failure(answer), failed: true });
        });
      },
      select: function (name) {
        var self = this;
        // Another app: the status line spoke of the one before, so it is cleared.
        this.$patch(name === this.selected ? { answer: null } : { selected: name, answer: null, status: '', failed: false });
        return Promise.all([
          request('GET', '/admin/apps/' + encodeURIComponent(name)),
          request('GET', '/admin/console/apps/' + encodeURIComponent(name) + '/versions'),
          request('GET', '/admin/console/apps/' + encodeURIComponent(name) + '/releases')
        ]).then(function (answers) {
          if (answers[0].status !== 200) { self.$patch({ status: failure(answers[0]), failed: true }); return; }
          var tag = answers[0].headers.get('ETag');
          replace(self, { detail: answers[0].body, tag: tag, filledTag: tag, versions: answers[1].status === 200 ? answers[1].body : [],
            releases: answers[2].status === 200 ? answers[2].body : [] });
          fillReleaseForm(answers[0].body);
        });
      },
      /**
       * Reads the release (and its history) again without touching the editor, so a confirmation
       * states what is current now, not what the screen loaded. Resolves to the tag read before
       * (`{ before }`), or `null` when the read failed (the status line says why).
       */
      refresh: function () {
        var self = this;
        var before = this.tag;
        var name = this.selected;
        return Promise.all([
          request('GET', '/admin/apps/' + encodeURIComponent(name)),
          request('GET', '/admin/console/apps/' + encodeURIComponent(name) + '/releases')
        ]).then(function (answers) {
          if (answers[0].status !== 200) { self.$patch({ status: failure(answers[0]), failed: true }); return null; }
          replace(self, { detail: answers[0].body, tag: answers[0].headers.get('ETag'),
            releases: answers[1].status === 200 ? answers[1].body : self.releases });
          return { before: before };
        });
      },
      /** Runs one admin write, reports it, and reads the app again. */
      write: function (method, path, body, done, options) {
        var self = this;
        this.$patch({ status: 'Saving…', failed: false });
        return request(method, path, body, options).then(function (answer) {
          if (answer.status === 412) {
            // Someone else saved since the confirmation read the release: nothing was written.
            self.$patch({ status: 'Not saved: the release of ' + self.selected + ' changed since it was read (' + failure(answer) +
              '). It is reloaded below; check it and save again.', failed: true });
            return self.select(self.selected);  // the same app: the status line stays
          }
          if (answer.status >= 300) { self.$patch({ status: failure(answer), failed: true }); return; }
          self.$patch({ status: done, failed: false });
          return self.select(self.selected);
        });
      },
      saveRelease: function (spec, tag) {
        return this.write('PUT', '/admin/apps/' + encodeURIComponent(this.selected) + '/release', JSON.stringify(spec), 'Release saved.',
          { ifMatch: tag });
      },
      pin: function (version) {
        return this.write('PUT', '/admin/apps/' + encodeURIComponent(this.selected) + '/pin', JSON.stringify({ version: version }),
          'Everybody is pinned to ' + version + '.');
      },
      unpin: function () {
        return this.write('DELETE', '/admin/apps/' + encodeURIComponent(this.selected) + '/pin', undefined, 'The pin is lifted.');
      },
      rollback: function (tag) {
        return this.write('POST', '/admin/apps/' + encodeURIComponent(this.selected) + '/rollback', undefined, 'Rolled back to the previous release.',
          { ifMatch: tag });
      },
      /** Uploads a version (bundle and optional stylesheet as text), then shows its app. */
      upload: function (app, version, bundle, stylesheet, minNativeVersion, assets) {
        var self = this;
        var body = { bundle: bundle };
        if (stylesheet) body.stylesheet = stylesheet;
        if (assets && assets.length) body.assets = assets;
        if (minNativeVersion) body.minNativeVersion = minNativeVersion;
        this.$patch({ status: 'Uploading ' + app + ' ' + version + '…', failed: false });
        return request('PUT', '/admin/apps/' + encodeURIComponent(app) + '/versions/' + encodeURIComponent(version), JSON.stringify(body))
          .then(function (answer) {
            if (answer.status !== 200 && answer.status !== 201) { self.$patch({ status: failure(answer), failed: true }); return; }
            self.selected = app;
            return self.reload().then(function () {
              self.$patch({ failed: false, status: answer.status === 201
                ? 'Uploaded ' + app + ' ' + version + ', unsigned.'
                : app + ' ' + version + ' was already uploaded with these bytes.' });
            });
          });
      },
      /** The manifest route's own answer for this user: never recomputed here. */
      ask: function (user, nativeVersion) {
        var self = this;
        var path = '/apps/' + encodeURIComponent(this.selected) + '/manifest?user=' + encodeURIComponent(user);
        if (nativeVersion) path += '&nativeVersion=' + encodeURIComponent(nativeVersion);
        return request('GET', path, undefined, { anonymous: true }).then(function (answer) {
          self.answer = answer.status === 200
            ? { user: user, version: answer.body.version, reason: answer.body.reason, variant: answer.body.variant, bucket: answer.body.bucket }
            : { user: user, error: failure(answer) };
        });
      }
    }
  });

  var useAudit = defineStore('audit', {
    state: function () { return { entries: [], next: null, status: '', failed: false }; },
    actions: {
      /** The newest page (`before` absent) or the page after the last one shown. */
      load: function (older) {
        var self = this;
        if (older && this.next === null) return Promise.resolve();  // the oldest page is shown
        var path = '/admin/console/audit?limit=' + AUDIT_PAGE + (older && this.next !== null ? '&before=' + this.next : '');
        this.$patch({ status: 'Loading…', failed: false });
        return request('GET', path).then(function (answer) {
          if (answer.status !== 200) { self.$patch({ status: failure(answer), failed: true }); return; }
          var entries = older ? self.entries.concat(answer.body.entries) : answer.body.entries;
          replace(self, { entries: entries, next: answer.body.next === undefined ? null : answer.body.next, failed: false,
            status: entries.length ? entries.length + ' change(s) shown' + (answer.body.next === undefined ? ', the oldest included.' : '; older ones follow.')
              : 'No change has been made through the admin API yet.' });
        });
      }
    }
  });
  var AUDIT_PAGE = 50;

  /**
   * The Traces screen: a trace file from this computer, read as its timeline by the server
   * (POST /admin/console/trace-timeline, nothing stored) and shown by js/timeline/timeline.js, the
   * script `statehub trace view` inlines. The steps stay out of the store: a trace may hold
   * thousands of steps with whole states, and the timeline owns its own view of them.
   */
  var useTraces = defineStore('traces', {
    state: function () { return { file: '', records: 0, cutLine: null, status: '', failed: false }; },
    actions: {
      /** Forgets the trace shown (on signing out). */
      clear: function () {
        showTimeline(null);
        replace(this, { file: '', records: 0, cutLine: null, status: '', failed: false });
      },
      open: function (file) {
        var self = this;
        var limit = Number(byId('trace-file').dataset.maxBytes);
        showTimeline(null);
        if (limit > 0 && file.size > limit) {
          replace(self, { file: file.name, records: 0, cutLine: null, failed: true,
            status: 'Not sent: ' + file.name + ' is ' + file.size + ' bytes; the server reads traces of at most ' + limit + ' bytes.' });
          return Promise.resolve();
        }
        replace(self, { file: file.name, records: 0, cutLine: null, status: 'Reading ' + file.name + '…', failed: false });
        return file.arrayBuffer().then(function (content) {
          return request('POST', '/admin/console/trace-timeline', content, { contentType: 'application/x-ndjson' });
        }).then(function (answer) {
          if (answer.status !== 200) {
            replace(self, { status: 'Cannot show ' + file.name + ': ' + failure(answer), failed: true });
            return;
          }
          var result = answer.body;
          var cut = result.cutLine === undefined ? null : result.cutLine;
          var status = result.records === 0 && cut === null ? file.name + ' holds no trace records.'
            : file.name + ': ' + result.records + ' record(s).';
          if (cut !== null) {
            status += ' Its last line (line ' + cut + ') is cut mid-record, as a killed recorder leaves it: the ' +
              result.records + ' record(s) before it are shown.';
          }
          var refused = showTimeline(result.steps);
          if (refused) status = 'Cannot show ' + file.name + ': ' + refused;
          replace(self, { records: result.records, cutLine: cut, status: status, failed: !!refused });
        }, function (error) {
          replace(self, { status: 'Cannot show ' + file.name + ': ' + error.message, failed: true });
        });
      }
    }
  });

  /**
   * Mounts the shared timeline for `steps`, or empties the view (`null`). The timeline keeps the
   * server's bound on padding (one null per 8 bytes of the trace cap, TimelineModel.Limits);
   * returns the reason when the steps pass it (nothing is shown then), else null.
   */
  function showTimeline(steps) {
    var view = byId('trace-view');
    if (steps === null || steps.length === 0) { view.textContent = ''; return null; }
    var limit = Number(byId('trace-file').dataset.maxBytes);
    var timeline = StateHubTimeline.mount(view, steps, { idPrefix: 'trace-', heading: 'h3',
      maxPaddingNulls: limit > 0 ? Math.floor(limit / 8) : undefined });
    return timeline.error || null;
  }

  // MARK: Rendering

  function setOptions(select, values, chosen) {
    select.textContent = '';
    values.forEach(function (value) {
      var option = document.createElement('option');
      option.value = value;
      option.textContent = value;
      select.appendChild(option);
    });
    if (chosen !== undefined && values.indexOf(chosen) >= 0) select.value = chosen;
  }

  /**
   * A cell that wraps only at spaces: each run of non-space characters is one unbreakable span, so
   * a date, hash or label never breaks at a hyphen or mid-word (the table scrolls instead); the
   * cell's text stays exactly `text`.
   */
  function cell(row, text) {
    var td = document.createElement('td');
    words(td, text);
    row.appendChild(td);
    return td;
  }

  /** Appends `text` to `element` as cell() fills a cell: one unbreakable span per run of non-space characters. */
  function words(element, text) {
    String(text).split(/(\s+)/).forEach(function (part) {
      if (part === '') return;
      if (/^\s+$/.test(part)) { element.appendChild(document.createTextNode(part)); return; }
      var word = document.createElement('span');
      word.className = 'word';
      word.textContent = part;
      element.appendChild(word);
    });
    return element;
  }

  var shownSignedIn = false;
  function renderSession(session) {
    byId('sign-in-screen').hidden = session.signedIn;
    byId('nav').hidden = !session.signedIn;
    byId('themes-screen').hidden = !session.signedIn || session.screen !== 'themes';
    byId('apps-screen').hidden = !session.signedIn || session.screen !== 'apps';
    byId('audit-screen').hidden = !session.signedIn || session.screen !== 'audit';
    byId('traces-screen').hidden = !session.signedIn || session.screen !== 'traces';
    ['themes', 'apps', 'audit', 'traces'].forEach(function (screen) {
      var button = byId('nav-' + screen);
      if (session.screen === screen) button.setAttribute('aria-current', 'page'); else button.removeAttribute('aria-current');
    });
    var status = byId('sign-in-status');
    status.textContent = session.message;
    status.className = session.refused ? 'error' : '';
    // Just signed in: the focus was on the sign-in form, now hidden; it goes to the first useful
    // control of the screen that shows (the theme editor), not back to the top of the page.
    if (session.signedIn && !shownSignedIn) byId('theme-text').focus();
    shownSignedIn = session.signedIn;
  }

  /** The custom properties of ThemeCSS's stylesheet: [light declarations, dark-only declarations]. */
  function splitStylesheet(stylesheet) {
    var marker = '@media (prefers-color-scheme: dark)';
    var at = stylesheet.indexOf(marker);
    function declarations(text) {
      var found = [];
      var pattern = /(--[A-Za-z0-9_-]+)\s*:\s*([^;]*);/g;
      var match;
      while ((match = pattern.exec(text)) !== null) found.push([match[1], match[2].trim()]);
      return found;
    }
    return at < 0 ? [declarations(stylesheet), []] : [declarations(stylesheet.slice(0, at)), declarations(stylesheet.slice(at))];
  }

  function styled(element, properties) {
    Object.keys(properties).forEach(function (name) { element.style.setProperty(name, properties[name]); });
    return element;
  }

  /** WCAG 2's relative luminance of an `rgb(…)`/`rgba(…)` colour; null for anything else. */
  function luminance(color) {
    var match = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(color);
    if (!match) return null;
    var channels = [match[1], match[2], match[3]].map(function (value) {
      var c = Number(value) / 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2];
  }

  /** The background an element's text is drawn on: its own, or the nearest ancestor's that is opaque. */
  function backgroundBehind(element, panel) {
    for (var node = element; node; node = node === panel ? null : node.parentElement) {
      var background = getComputedStyle(node).backgroundColor;
      var alpha = /^rgba\([^)]*,\s*([\d.]+)\)$/.exec(background);
      if (!alpha || Number(alpha[1]) === 1) return background;
    }
    return 'rgb(255, 255, 255)';
  }

  /** WCAG AA for normal text: a contrast ratio of at least 4.5:1. */
  var minimumContrast = 4.5;

  /** The components and font samples of a panel whose text is under `minimumContrast` on its background. */
  function contrastProblems(panel) {
    var problems = [];
    panel.querySelectorAll('[data-component], .font-sample').forEach(function (element) {
      var text = luminance(getComputedStyle(element).color);
      var background = luminance(backgroundBehind(element, panel));
      if (text === null || background === null) return;
      var ratio = (Math.max(text, background) + 0.05) / (Math.min(text, background) + 0.05);
      if (ratio < minimumContrast) {
        problems.push({ name: element.dataset.component || element.dataset.font, ratio: Math.floor(ratio * 10) / 10 });
      }
    });
    return problems;
  }

  function renderContrastWarnings(panel) {
    var problems = contrastProblems(panel);
    if (!problems.length) return;
    var list = document.createElement('ul');
    list.className = 'contrast-warnings';
    problems.forEach(function (problem) {
      var item = document.createElement('li');
      item.dataset.name = problem.name;
      item.dataset.ratio = String(problem.ratio);
      item.textContent = 'warning: ' + problem.name + ' has a text contrast of ' + problem.ratio +
        ':1, under WCAG AA (' + minimumContrast + ':1)';
      list.appendChild(item);
    });
    panel.appendChild(list);
  }

  function renderPreview(panel, check, variables, label, note) {
    panel.textContent = '';
    panel.removeAttribute('style');
    variables.forEach(function (pair) { panel.style.setProperty(pair[0], pair[1]); });
    var title = document.createElement('h4');
    title.textContent = label + ' — theme ' + check.version;
    panel.appendChild(title);
    if (note) {
      var said = document.createElement('p');
      said.className = 'preview-note';
      said.textContent = note;
      panel.appendChild(said);
    }
    check.fonts.forEach(function (font) {
      var line = styled(document.createElement('p'), {
        'font-family': 'var(' + font.variable + '-family), system-ui, sans-serif',
        'font-size': 'var(' + font.variable + '-size)'
      });
      line.className = 'font-sample';
      line.dataset.font = font.name;
      line.textContent = font.name + ': The quick brown fox jumps over the lazy dog.';
      panel.appendChild(line);
    });
    check.components.forEach(function (component) {
      var v = component.variable;
      var isButton = /button/i.test(component.name);
      var element = document.createElement(isButton ? 'button' : 'div');
      if (isButton) element.type = 'button';
      element.className = isButton ? 'component-button' : 'card';
      element.dataset.component = component.name;
      element.textContent = component.name;
      styled(element, {
        'background-color': 'var(' + v + '-background-color, transparent)',
        'color': 'var(' + v + '-text-color, inherit)',
        'border-radius': 'var(' + v + '-corner-radius, 0px)',
        // A family the browser lacks (an app font) falls back to the system's, as a list can.
        'font-family': 'var(' + v + '-font-family, system-ui), system-ui, sans-serif',
        'font-size': 'var(' + v + '-font-size, inherit)',
        'box-shadow': 'var(' + v + '-shadow-x, 0px) var(' + v + '-shadow-y, 0px) var(' + v + '-shadow-radius, 0px) ' +
          'color-mix(in srgb, var(' + v + '-shadow-color, transparent) calc(var(' + v + '-shadow-opacity, 0) * 100%), transparent)'
      });
      if (isButton) styled(element, { border: 'none', padding: '.5rem 1rem', 'margin-right': '.5rem' });
      panel.appendChild(element);
    });
    var swatches = document.createElement('div');
    swatches.className = 'swatches';
    check.colors.forEach(function (color) {
      var swatch = styled(document.createElement('span'), { 'background-color': 'var(' + color.variable + ')' });
      swatch.className = 'swatch';
      swatch.title = color.name;
      swatch.setAttribute('role', 'img');
      swatch.setAttribute('aria-label', 'colour ' + color.name);
      swatches.appendChild(swatch);
    });
    panel.appendChild(swatches);
    renderContrastWarnings(panel);
  }

  function renderThemes(themes) {
    var status = byId('theme-status');
    status.textContent = themes.status;
    status.className = themes.failed ? 'error' : '';
    byId('theme-publish').disabled = !themes.canPublish;
    var check = themes.check;
    var problems = byId('theme-problems');
    var source = byId('theme-source');
    problems.textContent = '';
    source.textContent = '';
    var hasProblems = !!(check && check.problems.length);
    byId('theme-problems-section').hidden = !hasProblems;
    if (hasProblems) {
      var marked = {};
      check.problems.forEach(function (problem, index) {
        var item = document.createElement('li');
        item.className = 'problem ' + problem.severity;
        item.dataset.path = problem.path;
        if (problem.line) item.dataset.line = String(problem.line);
        var where = document.createElement(problem.line ? 'a' : 'span');
        if (problem.line) {
          where.href = '#theme-line-' + problem.line;
          marked[problem.line] = (marked[problem.line] || []).concat([index + 1]);
        }
        where.className = 'problem-path';
        where.textContent = problem.path + (problem.line ? ' (line ' + problem.line + ')' : '');
        item.appendChild(document.createTextNode(problem.severity + ': '));
        item.appendChild(where);
        item.appendChild(document.createTextNode(' — ' + problem.message));
        problems.appendChild(item);
      });
      themes.checkedText.split('\n').forEach(function (text, index) {
        var number = index + 1;
        var line = document.createElement('li');
        line.id = 'theme-line-' + number;
        line.tabIndex = -1;
        if (marked[number]) {
          line.className = 'marked';
          line.setAttribute('aria-label', 'line ' + number + ', problem ' + marked[number].join(', ') + ': ' + text);
          var mark = document.createElement('mark');
          mark.textContent = text;
          line.appendChild(mark);
        } else {
          line.textContent = text || ' ';
        }
        source.appendChild(line);
      });
    }
    var preview = !!(check && check.valid && check.stylesheet);
    byId('theme-preview-section').hidden = !preview;
    if (preview) {
      var parts = splitStylesheet(check.stylesheet);
      renderPreview(byId('preview-light'), check, parts[0], 'Light');
      // Without a `dark` block a shell in dark mode gets the light values: the panel shows them as
      // the light one does, on the light fallbacks, rather than light colours on the console's black.
      var darkPanel = byId('preview-dark');
      darkPanel.dataset.fallback = parts[1].length ? 'dark' : 'light';
      renderPreview(darkPanel, check, parts[0].concat(parts[1]), 'Dark',
        parts[1].length ? '' : 'This theme has no dark block: in dark mode shells get its light values.');
    }
    var diff = themes.diff;
    byId('theme-diff-section').hidden = !(preview && diff);
    var diffBody = byId('theme-diff').tBodies[0];
    diffBody.textContent = '';
    if (diff) {
      byId('theme-diff-summary').textContent = diff.against
        ? diff.changes.length + ' change(s) against ' + diff.against + ', the theme /themes/current answers for this major version.'
        : 'Nothing of this major version is published yet: everything is new.';
      diff.changes.forEach(function (change) {
        var row = document.createElement('tr');
        row.className = 'change ' + change.kind;
        row.dataset.path = change.path;
        row.dataset.kind = change.kind;
        cell(row, change.path);
        cell(row, change.kind);
        cell(row, change.before === null ? '—' : change.before);
        cell(row, change.after === null ? '—' : change.after);
        diffBody.appendChild(row);
      });
    }
    var current = byId('theme-current');
    current.textContent = themes.current
      ? 'GET /themes/current answers ' + themes.current.version + ', ETag ' + themes.current.etag +
        (themes.previous ? ' (before: ' + themes.previous.version + ', ETag ' + themes.previous.etag + ')' : ' (before: none)')
      : '';
    if (themes.current) { current.dataset.etag = themes.current.etag; current.dataset.version = themes.current.version; }
    else { delete current.dataset.etag; delete current.dataset.version; }
    var body = byId('theme-list').tBodies[0];
    body.textContent = '';
    themes.published.forEach(function (theme) {
      var row = document.createElement('tr');
      cell(row, theme.version);
      cell(row, theme.current ? 'current' : theme.published ? 'published' : 'uploaded');
      cell(row, theme.sha256.slice(0, 16) + '…').title = theme.sha256;
      cell(row, when(theme.createdAt));
      var action = document.createElement('button');
      action.type = 'button';
      action.className = 'theme-action';
      action.dataset.version = theme.version;
      action.dataset.publish = String(!theme.published);
      action.textContent = theme.current ? 'Roll back (unpublish ' + theme.version + ')'
        : theme.published ? 'Unpublish ' + theme.version : 'Publish ' + theme.version;
      cell(row, '').appendChild(action);
      body.appendChild(row);
    });
  }

  function renderApps(apps) {
    var status = byId('app-status');
    status.textContent = apps.status;
    status.className = apps.failed ? 'error' : '';
    var select = byId('app-select');
    setOptions(select, apps.list.map(function (app) { return app.name; }), apps.selected);
    var body = byId('version-table').tBodies[0];
    body.textContent = '';
    apps.versions.forEach(function (version) {
      var row = document.createElement('tr');
      cell(row, version.version);
      cell(row, version.minNativeVersion);
      cell(row, bytes(version.totalBytes) + (version.assetCount ? ' (' + version.assetCount + ' assets)' : ''));
      cell(row, version.bundle.sha256.slice(0, 16) + '…').title = version.bundle.sha256;
      // The server holds no public key: it checks a signature's form only, so the key id is what the
      // signature claims; devices verify it (docs/server.md, "Signed releases").
      cell(row, version.signatureKeyId
        ? 'claims key ' + version.signatureKeyId + ' (not verified by the server; devices verify it)'
        : 'unsigned');
      cell(row, when(version.createdAt));
      body.appendChild(row);
    });
    var detail = apps.detail;
    var now = byId('release-now');
    if (!detail) now.textContent = apps.list.length ? '' : 'No micro-app has been uploaded yet.';
    else {
      var text = detail.release ? 'Now: ' + describeRelease(detail.release) : 'Now: no release';
      now.textContent = text + (detail.pinnedVersion ? '; pinned to ' + detail.pinnedVersion : '') + '.';
    }
    var history = byId('release-history').tBodies[0];
    history.textContent = '';
    apps.releases.forEach(function (entry) {
      var row = document.createElement('tr');
      row.dataset.id = String(entry.id);
      cell(row, when(entry.createdAt));
      cell(row, describeRelease(entry.release));
      cell(row, entry.current ? 'current' : '');
      history.appendChild(row);
    });
    var answer = byId('ask-answer');
    var result = apps.answer;
    answer.className = result && result.error ? 'error' : '';
    ['version', 'reason', 'variant', 'bucket'].forEach(function (key) { delete answer.dataset[key]; });
    if (!result) answer.textContent = '';
    else if (result.error) answer.textContent = (result.user ? result.user + ': ' : '') + result.error;
    else {
      answer.textContent = result.user + ' gets ' + result.version + ' (reason ' + result.reason +
        (result.variant ? ', arm ' + result.variant : '') + ', bucket ' + result.bucket + ').';
      answer.dataset.version = result.version;
      answer.dataset.reason = result.reason;
      answer.dataset.variant = result.variant || '';
      answer.dataset.bucket = String(result.bucket);
    }
  }

  /** One side of an audit row, in words: `release stable 1.0.0`, `pinned to 1.0.0`, `published, current 1.2.0`. */
  function describeState(state, action) {
    if (!state) return '—';
    var parts = [];
    if (/^release\./.test(action)) parts.push(state.release ? describeRelease(state.release, state.userCount) : 'no release');
    if (/^pin\./.test(action)) parts.push(state.pinnedVersion ? 'pinned to ' + state.pinnedVersion : 'not pinned');
    if (state.published !== undefined) parts.push(state.published ? 'published' : 'not published');
    if (/^theme\.(un)?publish$/.test(action)) parts.push('shells get ' + (state.current || 'no theme'));
    if (state.sha256) parts.push('SHA-256 ' + state.sha256.slice(0, 16) + '…');
    if (state.size !== undefined) parts.push(bytes(state.size));
    if (state.minNativeVersion) parts.push('oldest shell ' + state.minNativeVersion);
    if (state.assetCount) parts.push(state.assetCount + ' asset(s)');
    if (state.label !== undefined) parts.push('label ' + state.label);
    if (state.access) parts.push(state.access + ' access');
    return parts.join(', ');
  }

  function renderTraces(traces) {
    var status = byId('trace-status');
    status.textContent = traces.status;
    status.className = traces.failed ? 'error' : '';
  }

  function renderAudit(audit) {
    var status = byId('audit-status');
    status.textContent = audit.status;
    status.className = audit.failed ? 'error' : '';
    byId('audit-older').disabled = audit.next === null;
    var body = byId('audit-table').tBodies[0];
    body.textContent = '';
    audit.entries.forEach(function (entry) {
      var row = document.createElement('tr');
      row.dataset.id = String(entry.id);
      row.dataset.action = entry.action;
      cell(row, when(entry.at));
      cell(row, entry.author.label + ' (token ' + entry.author.tokenID + ')');
      cell(row, entry.action);
      cell(row, entry.target);
      cell(row, describeState(entry.before, entry.action));
      cell(row, describeState(entry.after, entry.action));
      var change = cell(row, '');
      change.className = 'audit-change';
      changes(entry).forEach(function (line) { change.appendChild(words(document.createElement('div'), line)); });
      body.appendChild(row);
    });
  }

  /**
   * What a release row changed, one line each: the stable version, each arm, each explicit user
   * (`user " alice": none → 1.1.0`; ids quoted, so spaces show). The server keeps only the users a
   * change touched (at most 20, `usersChanged` counting them all); rows written before hold both
   * releases whole, and the same comparison finds the users that differ there.
   */
  function changes(entry) {
    if (!/^release\./.test(entry.action)) return [];
    var before = entry.before && entry.before.release, after = entry.after && entry.after.release;
    if (!after) return [];
    var lines = [];
    if (!before) lines.push('first release');
    else if (before.stable !== after.stable) lines.push('stable ' + before.stable + ' → ' + after.stable);
    function arm(a) { return a ? a.percent + '% ' + a.version + (a.label !== undefined ? ' (label ' + JSON.stringify(a.label) + ')' : '') : 'none'; }
    var oldArms = (before && before.arms) || [], newArms = after.arms || [];
    for (var i = 0; i < Math.max(oldArms.length, newArms.length); i++) {
      var was = arm(oldArms[i]), now = arm(newArms[i]);
      if (was !== now) lines.push('arm ' + (i + 1) + ': ' + was + ' → ' + now);
    }
    var oldUsers = (before && before.users) || {}, newUsers = after.users || {};
    var ids = Object.keys(oldUsers).concat(Object.keys(newUsers).filter(function (id) { return !Object.prototype.hasOwnProperty.call(oldUsers, id); }));
    var listed = 0;
    ids.sort().forEach(function (id) {
      var was = Object.prototype.hasOwnProperty.call(oldUsers, id) ? oldUsers[id] : null;
      var now = Object.prototype.hasOwnProperty.call(newUsers, id) ? newUsers[id] : null;
      if (was === now) return;
      listed += 1;
      lines.push('user ' + JSON.stringify(id) + ': ' + (was || 'none') + ' → ' + (now || 'none (removed)'));
    });
    var total = entry.after.usersChanged;
    if (total !== undefined && total > listed) lines.push('and ' + (total - listed) + ' more explicit user(s) changed');
    if (lines.length === 0) lines.push('no change (saved again as it was)');
    return lines;
  }

  /** `stable 1.0.0, 50% 1.1.0 (arm A), 2 explicit user(s)`; `userCount` when the release is an audit row's. */
  function describeRelease(release, userCount) {
    var users = userCount !== undefined ? userCount : Object.keys(release.users || {}).length;
    return 'stable ' + release.stable + (release.arms || []).map(function (arm) {
      return ', ' + arm.percent + '% ' + arm.version + (arm.label ? ' (arm ' + arm.label + ')' : '');
    }).join('') + (users ? ', ' + users + ' explicit user(s)' : '');
  }

  /** Puts the app's current release into the editor (on selecting an app and after each write). */
  function fillReleaseForm(detail) {
    var versions = detail.versions.map(function (v) { return v.version; });
    var release = detail.release || { stable: versions[versions.length - 1], arms: [] };
    var arms = release.arms || [];
    setOptions(byId('release-stable'), versions, release.stable);
    setOptions(byId('arm-a-version'), versions, arms[0] ? arms[0].version : versions[versions.length - 1]);
    setOptions(byId('arm-b-version'), versions, arms[1] ? arms[1].version : versions[versions.length - 1]);
    setOptions(byId('pin-version'), versions, detail.pinnedVersion || undefined);
    byId('release-mode').value = arms.length === 2 ? 'ab' : arms.length === 1 ? 'rollout' : 'stable';
    releaseMode = byId('release-mode').value;
    if (arms[0]) byId('arm-a-percent').value = arms[0].percent;
    if (arms[1]) byId('arm-b-percent').value = arms[1].percent;
    // Labels as the API holds them (a custom one stays); none: empty, and an A/B split names its arms A and B.
    byId('arm-a-label').value = arms[0] && arms[0].label !== undefined ? arms[0].label : '';
    byId('arm-b-label').value = arms[1] && arms[1].label !== undefined ? arms[1].label : '';
    // Ids verbatim (spaces, "=" and all): a line is split at its last "=", which no version contains.
    byId('release-users').value = Object.keys(release.users || {}).map(function (user) { return user + '=' + release.users[user]; }).join('\n');
    showArms();
  }

  function showArms() {
    var mode = byId('release-mode').value;
    byId('arm-a').hidden = mode === 'stable';
    byId('arm-b').hidden = mode !== 'ab';
  }

  /**
   * The release the editor describes, as PUT /admin/apps/{app}/release takes it, or
   * `{ problem }` naming the first explicit-user line that is not `user=version` (never dropped).
   */
  function releaseFromForm() {
    var spec = { stable: byId('release-stable').value, arms: [] };
    var mode = byId('release-mode').value;
    // An arm's label is kept as typed (the API's own, when the editor was filled from it); an A/B
    // arm without one is named A or B, a rollout's arm has none.
    function arm(side, fallback) {
      var entry = { version: byId('arm-' + side + '-version').value, percent: Number(byId('arm-' + side + '-percent').value) };
      var label = byId('arm-' + side + '-label').value;
      if (label !== '') entry.label = label;
      else if (fallback) entry.label = fallback;
      return entry;
    }
    if (mode !== 'stable') spec.arms.push(arm('a', mode === 'ab' ? 'A' : null));
    if (mode === 'ab') spec.arms.push(arm('b', 'B'));
    // No prototype, and each id defined as an own property: an id such as "__proto__" is a key like
    // any other (`users[id] = v` would set the object's prototype instead, and drop the id).
    var users = Object.create(null);
    var problem = null;
    byId('release-users').value.split('\n').forEach(function (line, index) {
      if (problem !== null || line.trim() === '') return;
      // The last "=": a user id may hold "=" (the API accepts it), a version never does. The id is
      // kept verbatim, spaces included: it is what the manifest route is asked with.
      var at = line.lastIndexOf('=');
      var user = at < 0 ? '' : line.slice(0, at);
      var version = at < 0 ? '' : line.slice(at + 1).trim();
      var where = 'Explicit users, line ' + (index + 1) + ' ("' + line + '")';
      if (at < 0) problem = where + ': no "=", write user=version.';
      else if (!user || !version) problem = where + ': ' + (user ? 'no version' : 'no user') + ' around the "=".';
      else if (Object.prototype.hasOwnProperty.call(users, user)) problem = where + ': ' + user + ' is already listed above.';
      else Object.defineProperty(users, user, { value: version, enumerable: true, writable: true, configurable: true });
    });
    if (problem !== null) return { problem: problem };
    if (Object.keys(users).length) spec.users = users;
    return spec;
  }

  // MARK: Wiring

  var session = useSession();
  var themes = useThemes();
  var apps = useApps();
  var audit = useAudit();
  var traces = useTraces();
  // Signed out (or refused): the trace read while signed in is no longer shown.
  session.$subscribe(function () { renderSession(session); if (!session.signedIn && traces.file) traces.clear(); });
  traces.$subscribe(function () { renderTraces(traces); });
  themes.$subscribe(function () { renderThemes(themes); });
  apps.$subscribe(function () { renderApps(apps); });
  audit.$subscribe(function () { renderAudit(audit); });
  renderSession(session);
  renderThemes(themes);
  renderApps(apps);
  renderAudit(audit);
  renderTraces(traces);

  /**
   * Every production change asks first, in the page (a native confirm() cannot be driven
   * headless, and it says less): `title` names the change, `lines` what it does to whom; the
   * dialog opens on "Cancel", so Enter alone never publishes. `cancelled` tells the screen's
   * status line that nothing was sent.
   */
  var pending = null;
  function confirmChange(title, lines, verb, run, cancelled) {
    byId('confirm-title').textContent = title;
    var list = byId('confirm-lines');
    list.textContent = '';
    lines.forEach(function (text) {
      var item = document.createElement('li');
      item.textContent = text;
      list.appendChild(item);
    });
    byId('confirm-yes').textContent = verb;
    pending = { run: run, cancelled: cancelled, title: title };
    byId('confirm').showModal();
    byId('confirm-no').focus();
  }
  byId('confirm-yes').addEventListener('click', function () {
    var change = pending;
    pending = null;
    byId('confirm').close();
    if (change) change.run();
  });
  byId('confirm-no').addEventListener('click', function () { byId('confirm').close(); });
  // Cancel, Escape, or anything else that closes the dialog without "yes".
  byId('confirm').addEventListener('close', function () {
    var change = pending;
    pending = null;
    if (change) change.cancelled('Cancelled: ' + change.title + ' Nothing was sent.');
  });
  function themeCancelled(message) { themes.$patch({ status: message, failed: false }); }
  function appCancelled(message) { apps.$patch({ status: message, failed: false }); }

  /**
   * A form the browser refuses (a required field, a pattern, a range) sends nothing: its
   * screen's status line says so and which field, instead of keeping an older message.
   */
  var refusedFields = null;
  document.addEventListener('invalid', function (event) {
    var field = event.target;
    var form = field.form;
    if (!form) return;
    var label = field.labels && field.labels.length ? field.labels[0].textContent : field.id;
    if (refusedFields === null) {
      refusedFields = [];
      Promise.resolve().then(function () {
        var message = 'Not sent: ' + refusedFields.join('; ');
        refusedFields = null;
        if (form.id === 'sign-in-form') session.$patch({ message: message, refused: true });
        else if (form.id === 'theme-form') themes.$patch({ status: message, failed: true });
        else if (form.id === 'ask-form') apps.$patch({ answer: { user: '', error: message } });
        else apps.$patch({ status: message, failed: true });
      });
    }
    refusedFields.push(label + ': ' + field.validationMessage);
  }, true);

  function submit(id, handler) {
    byId(id).addEventListener('submit', function (event) { event.preventDefault(); handler(); });
  }
  submit('sign-in-form', function () {
    var field = byId('token');
    var candidate = field.value.trim();
    field.value = '';
    session.signIn(candidate);
  });
  byId('sign-out').addEventListener('click', function () { session.signOut(); byId('token').focus(); });
  Array.prototype.forEach.call(document.querySelectorAll('nav [data-screen]'), function (button) {
    button.addEventListener('click', function () {
      session.show(button.dataset.screen);
      if (button.dataset.screen === 'apps') apps.reload();
      else if (button.dataset.screen === 'audit') audit.load(false);
      else if (button.dataset.screen === 'themes') themes.loadPublished();
    });
  });
  byId('audit-reload').addEventListener('click', function () { audit.load(false); });
  // The input is emptied once the file is taken, so picking the same file again reads it again
  // (a browser fires no change for the same file otherwise).
  byId('trace-file').addEventListener('change', function (event) {
    var file = event.target.files && event.target.files[0];
    event.target.value = '';
    if (file) traces.open(file);
  });
  byId('audit-older').addEventListener('click', function () { audit.load(true); });
  byId('theme-text').addEventListener('input', function (event) { themes.text = event.target.value; });
  byId('theme-file').addEventListener('change', function (event) {
    var file = event.target.files && event.target.files[0];
    event.target.value = '';
    if (!file) return;
    file.text().then(function (text) { byId('theme-text').value = text; themes.text = text; themes.runCheck(); });
  });
  submit('theme-form', function () { themes.text = byId('theme-text').value; themes.runCheck(); });
  function shellsOf(version) { return 'shells of ' + version.split('.')[0] + '.x'; }
  byId('theme-publish').addEventListener('click', function () {
    if (!themes.canPublish) return;
    var version = themes.check.version;
    var now = themes.outcome(version, false);
    confirmChange('Publish theme ' + version + '?', [
      'Uploads ' + version + ' (themes are immutable) and publishes it.',
      'Now ' + shellsOf(version) + ' get ' + (now || 'no theme') + '; afterwards the newest published ' +
        version.split('.')[0] + '.x theme.'
    ], 'Publish ' + version, function () { themes.publish(); }, themeCancelled);
  });
  byId('theme-list').addEventListener('click', function (event) {
    var button = event.target.closest('button.theme-action');
    if (!button) return;
    var version = button.dataset.version;
    var publish = button.dataset.publish === 'true';
    var now = themes.outcome(version, !publish);
    var after = themes.outcome(version, publish);
    var lines = ['Now ' + shellsOf(version) + ' get ' + (now || 'no theme') + '; afterwards ' + (after || 'no theme') + '.'];
    if (!publish && after === null) {
      lines = ['Now ' + shellsOf(version) + ' get ' + (now || 'no theme') + '.',
        version + ' is the only published theme of major ' + version.split('.')[0] + ': without it ' + shellsOf(version) +
          ' would get no theme (404), so the server refuses this. Publish another ' + version.split('.')[0] + '.x theme first.'];
    }
    confirmChange((publish ? 'Publish' : now === version ? 'Roll back (unpublish)' : 'Unpublish') + ' theme ' + version + '?', lines,
      publish ? 'Publish ' + version : 'Unpublish ' + version,
      function () { themes.setPublished(version, publish); }, themeCancelled);
  });
  byId('app-select').addEventListener('change', function (event) { apps.select(event.target.value); });
  // Leaving an A/B split, the arm keeps no label it had as an arm of the split ("A" stays out of a
  // rollout unless typed again); the status line says so when one is cleared.
  var releaseMode = byId('release-mode').value;
  byId('release-mode').addEventListener('change', function () {
    var mode = byId('release-mode').value;
    if (releaseMode === 'ab' && mode !== 'ab') {
      var cleared = ['a', 'b'].map(function (side) { return byId('arm-' + side + '-label'); }).filter(function (field) { return field.value !== ''; });
      if (cleared.length) {
        var labels = cleared.map(function (field) { return JSON.stringify(field.value); }).join(' and ');
        cleared.forEach(function (field) { field.value = ''; });
        apps.$patch({ status: 'The A/B label(s) ' + labels + ' were cleared: a ' + (mode === 'rollout' ? 'percentage rollout' : 'stable release') +
          ' names no arm unless you type a label.', failed: false });
      }
    }
    releaseMode = mode;
    showArms();
  });
  function appNow() {
    var detail = apps.detail;
    if (!detail) return 'no release';
    return (detail.release ? describeRelease(detail.release) : 'no release') + (detail.pinnedVersion ? ', pinned to ' + detail.pinnedVersion : '');
  }
  /** The line a confirmation adds when the release changed between loading the screen and asking. */
  function changedSince(read) {
    return read.before !== null && read.before !== apps.tag
      ? ['The release changed since this screen loaded it (someone else saved): "Now" above is the current one.'] : [];
  }
  /**
   * For a save: the editor still shows the release it was filled from. When that is no longer the
   * current one, the save is sent with the editor's tag and refused (412), and the editor reloaded.
   */
  function editorStale() {
    return apps.filledTag !== null && apps.filledTag !== apps.tag
      ? ['The release changed since this screen loaded it (someone else saved): "Now" above is the current one. ' +
         'The editor still shows the release it loaded, so saving is refused and the editor is reloaded; nothing is overwritten.'] : [];
  }
  submit('release-form', function () {
    var spec = releaseFromForm();
    if (spec.problem) {
      apps.$patch({ status: 'Not saved: ' + spec.problem, failed: true });
      byId('release-users').focus();
      return;
    }
    // Re-read before asking: the dialog states the release current now, and the save sends its tag
    // (If-Match), so a change made after this read is refused (412), never overwritten silently.
    apps.refresh().then(function (read) {
      if (read === null) return;
      // The tag of the release the editor was filled from, not the one just re-read: after a
      // warning and Cancel, a second Save must not write over the colleague's change.
      var tag = apps.filledTag;
      confirmChange('Save the release of ' + apps.selected + '?', ['Now: ' + appNow() + '.', 'Afterwards: ' + describeRelease(spec) + '.']
        .concat(editorStale())
        .concat(apps.detail && apps.detail.pinnedVersion ? ['The pin stays: everybody keeps getting ' + apps.detail.pinnedVersion + ' until it is lifted.'] : []),
      'Save release', function () { apps.saveRelease(spec, tag); }, appCancelled);
    });
  });
  submit('pin-form', function () {
    var version = byId('pin-version').value;
    confirmChange('Pin everybody on ' + apps.selected + ' to ' + version + '?', ['Now: ' + appNow() + '.',
      'Afterwards every user gets ' + version + ', whatever the release says, until the pin is lifted.'],
    'Pin to ' + version, function () { apps.pin(version); }, appCancelled);
  });
  byId('unpin').addEventListener('click', function () {
    confirmChange('Lift the pin of ' + apps.selected + '?', ['Now: ' + appNow() + '.',
      'Afterwards users get what the release says' + (apps.detail && apps.detail.release ? ': ' + describeRelease(apps.detail.release) : '') + '.'],
    'Lift the pin', function () { apps.unpin(); }, appCancelled);
  });
  byId('rollback').addEventListener('click', function () {
    apps.refresh().then(function (read) {
      if (read === null) return;
      var tag = apps.tag;
      var current = apps.releases.filter(function (entry) { return entry.current; })[0];
      var previous = current && current.previousID !== undefined
        ? apps.releases.filter(function (entry) { return entry.id === current.previousID; })[0] : undefined;
      var after = !current || current.previousID === undefined ? 'there is no earlier release: the server will refuse this.'
        : previous ? describeRelease(previous.release) + ' (the release before the current one).' : 'the release before the current one.';
      confirmChange('Roll back the release of ' + apps.selected + '?', ['Now: ' + appNow() + '.', 'Afterwards: ' + after].concat(changedSince(read)),
        'Roll back', function () { apps.rollback(tag); }, appCancelled);
    });
  });
  submit('upload-form', function () {
    function read(id) {
      var file = byId(id).files && byId(id).files[0];
      return file ? file.text() : Promise.resolve('');
    }
    // Each asset at its file name, its bytes as standard base64 (docs/server.md, "Assets").
    function asset(file) {
      return new Promise(function (resolve, reject) {
        var reader = new FileReader();
        reader.onload = function () { resolve({ path: file.name, data: String(reader.result).replace(/^data:[^,]*,/, '') }); };
        reader.onerror = function () { reject(reader.error); };
        reader.readAsDataURL(file);
      });
    }
    var files = Array.prototype.slice.call(byId('upload-assets').files || []);
    var app = byId('upload-app').value.trim();
    var version = byId('upload-version').value.trim();
    var native = byId('upload-native').value.trim();
    Promise.all([read('upload-bundle'), read('upload-stylesheet'), Promise.all(files.map(asset))]).then(function (parts) {
      confirmChange('Upload ' + app + ' ' + version + '?', [
        'Bundle ' + bytes(new TextEncoder().encode(parts[0]).length) + (parts[1] ? ', a stylesheet' : ', no stylesheet') +
          ', ' + parts[2].length + ' asset(s); oldest shell ' + (native || '0.0.0') + '.',
        'Versions are immutable: once uploaded, ' + app + ' ' + version + ' cannot be replaced. Nobody gets it until a release or pin names it.',
        'It is unsigned: devices that check signatures refuse it (sign and upload with statehub release publish).'
      ], 'Upload', function () { apps.upload(app, version, parts[0], parts[1], native, parts[2]); }, appCancelled);
    }, function (error) { apps.$patch({ status: 'Could not read a file: ' + error.message, failed: true }); });
  });
  // The id verbatim, as the release editor keeps it (" alice" is not "alice"); only the version is trimmed.
  submit('ask-form', function () { apps.ask(byId('ask-user').value, byId('ask-native').value.trim()); });
  showArms();
  document.documentElement.dataset.ready = 'true';
})();
