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
    if (body !== undefined) headers['Content-Type'] = 'application/json';
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
    if (body && typeof body === 'object' && body.error) return answer.status + ' ' + body.error + ': ' + body.message;
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
            self.$patch({ signedIn: true, message: '', refused: false });
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
      return { list: [], selected: '', detail: null, versions: [], releases: [], status: '', failed: false, answer: null };
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
        this.$patch({ selected: name, answer: null });
        return Promise.all([
          request('GET', '/admin/apps/' + encodeURIComponent(name)),
          request('GET', '/admin/console/apps/' + encodeURIComponent(name) + '/versions'),
          request('GET', '/admin/console/apps/' + encodeURIComponent(name) + '/releases')
        ]).then(function (answers) {
          if (answers[0].status !== 200) { self.$patch({ status: failure(answers[0]), failed: true }); return; }
          replace(self, { detail: answers[0].body, versions: answers[1].status === 200 ? answers[1].body : [],
            releases: answers[2].status === 200 ? answers[2].body : [] });
          fillReleaseForm(answers[0].body);
        });
      },
      /** Runs one admin write, reports it, and reads the app again. */
      write: function (method, path, body, done) {
        var self = this;
        this.$patch({ status: 'Saving…', failed: false });
        return request(method, path, body).then(function (answer) {
          if (answer.status >= 300) { self.$patch({ status: failure(answer), failed: true }); return; }
          self.$patch({ status: done, failed: false });
          return self.select(self.selected);
        });
      },
      saveRelease: function (spec) {
        return this.write('PUT', '/admin/apps/' + encodeURIComponent(this.selected) + '/release', JSON.stringify(spec), 'Release saved.');
      },
      pin: function (version) {
        return this.write('PUT', '/admin/apps/' + encodeURIComponent(this.selected) + '/pin', JSON.stringify({ version: version }),
          'Everybody is pinned to ' + version + '.');
      },
      unpin: function () {
        return this.write('DELETE', '/admin/apps/' + encodeURIComponent(this.selected) + '/pin', undefined, 'The pin is lifted.');
      },
      rollback: function () {
        return this.write('POST', '/admin/apps/' + encodeURIComponent(this.selected) + '/rollback', undefined, 'Rolled back to the previous release.');
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
                ? 'Uploaded ' + app + ' ' + version + '.'
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

  function cell(row, text) {
    var td = document.createElement('td');
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  function renderSession(session) {
    byId('sign-in-screen').hidden = session.signedIn;
    byId('nav').hidden = !session.signedIn;
    byId('themes-screen').hidden = !session.signedIn || session.screen !== 'themes';
    byId('apps-screen').hidden = !session.signedIn || session.screen !== 'apps';
    ['themes', 'apps'].forEach(function (screen) {
      var button = byId('nav-' + screen);
      if (session.screen === screen) button.setAttribute('aria-current', 'page'); else button.removeAttribute('aria-current');
    });
    var status = byId('sign-in-status');
    status.textContent = session.message;
    status.className = session.refused ? 'error' : '';
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

  function renderPreview(panel, check, variables, label) {
    panel.textContent = '';
    panel.removeAttribute('style');
    variables.forEach(function (pair) { panel.style.setProperty(pair[0], pair[1]); });
    var title = document.createElement('h4');
    title.textContent = label + ' — theme ' + check.version;
    panel.appendChild(title);
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
      renderPreview(byId('preview-dark'), check, parts[0].concat(parts[1]), 'Dark');
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
    else if (result.error) answer.textContent = result.user + ': ' + result.error;
    else {
      answer.textContent = result.user + ' gets ' + result.version + ' (reason ' + result.reason +
        (result.variant ? ', arm ' + result.variant : '') + ', bucket ' + result.bucket + ').';
      answer.dataset.version = result.version;
      answer.dataset.reason = result.reason;
      answer.dataset.variant = result.variant || '';
      answer.dataset.bucket = String(result.bucket);
    }
  }

  /** `stable 1.0.0, 50% 1.1.0 (arm A), 2 explicit user(s)`. */
  function describeRelease(release) {
    var users = Object.keys(release.users || {}).length;
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
    if (arms[0]) byId('arm-a-percent').value = arms[0].percent;
    if (arms[1]) byId('arm-b-percent').value = arms[1].percent;
    byId('release-users').value = Object.keys(release.users || {}).map(function (user) { return user + '=' + release.users[user]; }).join('\n');
    showArms();
  }

  function showArms() {
    var mode = byId('release-mode').value;
    byId('arm-a').hidden = mode === 'stable';
    byId('arm-b').hidden = mode !== 'ab';
  }

  /** The release the editor describes, as PUT /admin/apps/{app}/release takes it. */
  function releaseFromForm() {
    var spec = { stable: byId('release-stable').value, arms: [] };
    var mode = byId('release-mode').value;
    if (mode !== 'stable') {
      var a = { version: byId('arm-a-version').value, percent: Number(byId('arm-a-percent').value) };
      if (mode === 'ab') a.label = 'A';
      spec.arms.push(a);
    }
    if (mode === 'ab') spec.arms.push({ version: byId('arm-b-version').value, percent: Number(byId('arm-b-percent').value), label: 'B' });
    var users = {};
    byId('release-users').value.split('\n').forEach(function (line) {
      var at = line.indexOf('=');
      if (at > 0) users[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    });
    if (Object.keys(users).length) spec.users = users;
    return spec;
  }

  // MARK: Wiring

  var session = useSession();
  var themes = useThemes();
  var apps = useApps();
  session.$subscribe(function () { renderSession(session); });
  themes.$subscribe(function () { renderThemes(themes); });
  apps.$subscribe(function () { renderApps(apps); });
  renderSession(session);
  renderThemes(themes);
  renderApps(apps);

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
      else themes.loadPublished();
    });
  });
  byId('theme-text').addEventListener('input', function (event) { themes.text = event.target.value; });
  byId('theme-file').addEventListener('change', function (event) {
    var file = event.target.files && event.target.files[0];
    if (!file) return;
    file.text().then(function (text) { byId('theme-text').value = text; themes.text = text; themes.runCheck(); });
  });
  submit('theme-form', function () { themes.text = byId('theme-text').value; themes.runCheck(); });
  byId('theme-publish').addEventListener('click', function () { themes.publish(); });
  byId('theme-list').addEventListener('click', function (event) {
    var button = event.target.closest('button.theme-action');
    if (button) themes.setPublished(button.dataset.version, button.dataset.publish === 'true');
  });
  byId('app-select').addEventListener('change', function (event) { apps.select(event.target.value); });
  byId('release-mode').addEventListener('change', showArms);
  submit('release-form', function () { apps.saveRelease(releaseFromForm()); });
  submit('pin-form', function () { apps.pin(byId('pin-version').value); });
  byId('unpin').addEventListener('click', function () { apps.unpin(); });
  byId('rollback').addEventListener('click', function () { apps.rollback(); });
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
    Promise.all([read('upload-bundle'), read('upload-stylesheet'), Promise.all(files.map(asset))]).then(function (parts) {
      apps.upload(byId('upload-app').value.trim(), byId('upload-version').value.trim(), parts[0], parts[1],
        byId('upload-native').value.trim(), parts[2]);
    }, function (error) { apps.$patch({ status: 'Could not read a file: ' + error.message, failed: true }); });
  });
  submit('ask-form', function () { apps.ask(byId('ask-user').value.trim(), byId('ask-native').value.trim()); });
  showArms();
  document.documentElement.dataset.ready = 'true';
})();
