/// The OpenAPI document of every route, served at `/openapi.yaml`. A copy of
/// `docs/openapi.yaml` made by scripts/embed-openapi.sh (a test checks they are equal),
/// embedded so the binary needs no files.
enum OpenAPIDocument {
    static let yaml = #"""
openapi: 3.0.3
info:
  title: StateHub server
  version: 1.0.0
  description: >-
    Micro-app delivery for native shells: manifests with percentage rollout, A/B, pin and
    rollback; immutable bundles; the loader page; themes with HTTP caching; the admin API.
    The rules behind these shapes are in docs/server.md. Every path is exact: a trailing or
    repeated slash is 404 on every route; a method a path has no route for is 405 with Allow
    (docs/server.md, "Paths and methods"); both with the Error body.
paths:
  /:
    get:
      operationId: index
      responses:
        '200':
          description: A small HTML page linking the console, this API, health and metrics.
          content:
            text/html:
              schema: {type: string}
  /healthz:
    get:
      operationId: health
      responses:
        '200':
          description: The server is up.
          content:
            application/json:
              schema:
                type: object
                required: [status]
                properties:
                  status: {type: string}
  /openapi.yaml:
    get:
      operationId: openAPI
      responses:
        '200':
          description: This document.
          content:
            application/yaml:
              schema: {type: string}
  /metrics:
    get:
      operationId: metrics
      responses:
        '200':
          description: Prometheus text exposition.
          content:
            text/plain:
              schema: {type: string}
  /apps/{app}/manifest:
    get:
      operationId: manifest
      parameters:
        - $ref: '#/components/parameters/App'
        - $ref: '#/components/parameters/User'
        - $ref: '#/components/parameters/NativeVersion'
      responses:
        '200':
          description: The version this user gets.
          headers:
            Cache-Control: {schema: {type: string, enum: [no-store]}}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Manifest'}
        '400': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /apps/{app}/{version}/bundle.js:
    get:
      operationId: bundle
      parameters:
        - $ref: '#/components/parameters/App'
        - $ref: '#/components/parameters/Version'
        - $ref: '#/components/parameters/IfNoneMatch'
      responses:
        '200':
          description: The bundle (immutable).
          headers:
            ETag: {schema: {type: string}}
            Cache-Control: {schema: {type: string}}
          content:
            text/javascript:
              schema: {type: string}
        '304': {description: Not modified.}
        '400': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /apps/{app}/{version}/style.css:
    get:
      operationId: stylesheet
      parameters:
        - $ref: '#/components/parameters/App'
        - $ref: '#/components/parameters/Version'
        - $ref: '#/components/parameters/IfNoneMatch'
      responses:
        '200':
          description: The version's stylesheet (immutable).
          headers:
            ETag: {schema: {type: string}}
            Cache-Control: {schema: {type: string}}
          content:
            text/css:
              schema: {type: string}
        '304': {description: Not modified.}
        '400': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /apps/{app}/{version}/{path}:
    get:
      operationId: asset
      description: >-
        One of the version's assets (docs/server.md, "Assets"). `path` may span several
        segments (img/logo.png); each segment is 1-128 of [A-Za-z0-9._-], not starting with a
        dot. The content type comes from the extension (an allowlist; unknown is
        application/octet-stream); X-Content-Type-Options is nosniff.
      parameters:
        - $ref: '#/components/parameters/App'
        - $ref: '#/components/parameters/Version'
        - name: path
          in: path
          required: true
          schema: {type: string, maxLength: 255, pattern: '^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$', example: logo.png}
        - $ref: '#/components/parameters/IfNoneMatch'
      responses:
        '200':
          description: The asset (immutable).
          headers:
            ETag: {schema: {type: string}}
            Cache-Control: {schema: {type: string, enum: ['public, max-age=31536000, immutable']}}
            X-Content-Type-Options: {schema: {type: string, enum: [nosniff]}}
          content:
            application/octet-stream:
              schema: {type: string, format: binary}
        '304': {description: Not modified.}
        '400': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /micro-apps/{app}:
    get:
      operationId: loaderPage
      parameters:
        - $ref: '#/components/parameters/App'
        - $ref: '#/components/parameters/User'
        - $ref: '#/components/parameters/NativeVersion'
      responses:
        '200':
          description: The HTML loader page.
          content:
            text/html:
              schema: {type: string}
        '400': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /runtime/{file}:
    get:
      operationId: storeRuntime
      description: >-
        The Pinia-compatible store runtime (js/runtime/reactivity.js then pinia.js) under a
        content-hashed name, pinia-<16 hex digits>.js, which the loader page names with
        Subresource Integrity. Any other name is 404.
      parameters:
        - name: file
          in: path
          required: true
          schema: {type: string, maxLength: 64}
        - $ref: '#/components/parameters/IfNoneMatch'
      responses:
        '200':
          description: The runtime script.
          headers:
            ETag: {schema: {type: string}}
            Cache-Control: {schema: {type: string, enum: ['public, max-age=31536000, immutable']}}
          content:
            text/javascript:
              schema: {type: string}
        '304': {description: Not modified.}
        '404': {$ref: '#/components/responses/Error'}
  /themes/current:
    get:
      operationId: currentTheme
      parameters:
        - name: nativeVersion
          in: query
          required: true
          schema: {$ref: '#/components/schemas/SemanticVersion'}
        - $ref: '#/components/parameters/IfNoneMatch'
      responses:
        '200':
          description: The newest published theme of the shell's major version.
          headers:
            ETag: {schema: {type: string}}
            Cache-Control: {schema: {type: string, enum: [no-cache]}}
          content:
            application/json:
              schema: {type: object}
        '304': {description: Not modified.}
        '400': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /themes/{version}:
    get:
      operationId: theme
      parameters:
        - $ref: '#/components/parameters/Version'
        - $ref: '#/components/parameters/IfNoneMatch'
      responses:
        '200':
          description: One published theme (immutable).
          headers:
            ETag: {schema: {type: string}}
            Cache-Control: {schema: {type: string}}
          content:
            application/json:
              schema: {type: object}
        '304': {description: Not modified.}
        '400': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /sync/{document}:
    get:
      operationId: syncDocument
      summary: A shared document over y-websocket (docs/sync.md); this route only upgrades to a WebSocket.
      description: >-
        With `Upgrade: websocket` and a valid token the connection becomes a WebSocket speaking
        the y-websocket protocol (binary frames). Without an upgrade, or when the request is
        refused, the answer is one of the JSON problems below.
      parameters:
        - {$ref: '#/components/parameters/Document'}
        - name: token
          in: query
          required: false
          description: 'An admin token or a document token (or the Authorization header: Bearer TOKEN).'
          schema: {type: string}
        - name: ack
          in: query
          required: false
          description: '`1` asks for write acknowledgements (message 100, docs/sync.md §1.4).'
          schema: {type: string, enum: ['1']}
      responses:
        '101': {description: Switched to the WebSocket.}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '403': {$ref: '#/components/responses/Error'}
        '426': {$ref: '#/components/responses/Error'}
        '503': {$ref: '#/components/responses/Error'}
  /admin/apps/{app}:
    get:
      operationId: adminApp
      security: [{bearer: []}]
      parameters:
        - $ref: '#/components/parameters/App'
      responses:
        '200':
          description: The app's versions, release and pin.
          headers:
            ETag: {description: 'the release''s tag, for If-Match', schema: {type: string}}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/AppState'}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /admin/apps/{app}/versions/{version}:
    put:
      operationId: uploadVersion
      security: [{bearer: []}]
      parameters:
        - $ref: '#/components/parameters/App'
        - $ref: '#/components/parameters/Version'
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/VersionUpload'}
      responses:
        '200': {description: The same bytes were already uploaded under this version.}
        '201': {description: Created.}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '409': {$ref: '#/components/responses/Error'}
        '413': {$ref: '#/components/responses/Error'}
        '422': {$ref: '#/components/responses/Error'}
  /admin/apps/{app}/release:
    put:
      operationId: setRelease
      security: [{bearer: []}]
      parameters:
        - $ref: '#/components/parameters/App'
        - $ref: '#/components/parameters/IfMatchRelease'
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Release'}
      responses:
        '200':
          description: The release now current.
          headers:
            ETag: {description: 'the new release''s tag', schema: {type: string}}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Release'}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
        '412': {$ref: '#/components/responses/Error'}
        '413': {$ref: '#/components/responses/Error'}
        '422': {$ref: '#/components/responses/Error'}
  /admin/apps/{app}/pin:
    put:
      operationId: pin
      security: [{bearer: []}]
      parameters:
        - $ref: '#/components/parameters/App'
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              required: [version]
              properties:
                version: {type: string}
      responses:
        '200': {description: Pinned.}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
        '413': {$ref: '#/components/responses/Error'}
        '422': {$ref: '#/components/responses/Error'}
    delete:
      operationId: unpin
      security: [{bearer: []}]
      parameters:
        - $ref: '#/components/parameters/App'
      responses:
        '204': {description: The pin is lifted.}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /admin/apps/{app}/rollback:
    post:
      operationId: rollback
      security: [{bearer: []}]
      parameters:
        - $ref: '#/components/parameters/App'
        - $ref: '#/components/parameters/IfMatchRelease'
      responses:
        '200':
          description: The release now current.
          headers:
            ETag: {description: 'the new release''s tag', schema: {type: string}}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Release'}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
        '409': {$ref: '#/components/responses/Error'}
        '412': {$ref: '#/components/responses/Error'}
  /admin/themes/{version}:
    put:
      operationId: uploadTheme
      security: [{bearer: []}]
      parameters:
        - $ref: '#/components/parameters/Version'
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object}
      responses:
        '200': {description: The same theme was already uploaded.}
        '201': {description: Created (not yet published).}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '409': {$ref: '#/components/responses/Error'}
        '413': {$ref: '#/components/responses/Error'}
        '422': {$ref: '#/components/responses/Error'}
  /admin/themes/{version}/publish:
    post:
      operationId: publishTheme
      security: [{bearer: []}]
      parameters:
        - $ref: '#/components/parameters/Version'
      responses:
        '200': {description: Published.}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /admin/themes/{version}/unpublish:
    post:
      operationId: unpublishTheme
      security: [{bearer: []}]
      parameters:
        - $ref: '#/components/parameters/Version'
      responses:
        '200': {description: Unpublished.}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
        '409':
          description: >-
            last-published-theme: the only published theme of its major; shells of that major would
            get no theme. Nothing changed.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
  /admin/tokens:
    post:
      operationId: createToken
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              required: [label]
              properties:
                label: {type: string, maxLength: 128}
      responses:
        '201':
          description: The new token, shown once.
          content:
            application/json:
              schema:
                type: object
                required: [id, token]
                properties:
                  id: {type: integer}
                  token: {type: string}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '413': {$ref: '#/components/responses/Error'}
  /admin/tokens/{id}:
    delete:
      operationId: deleteToken
      security: [{bearer: []}]
      parameters:
        - name: id
          in: path
          required: true
          schema: {type: integer}
      responses:
        '204': {description: Deleted.}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /admin/console/theme-check:
    post:
      operationId: consoleThemeCheck
      description: >-
        Checks a theme without storing it (docs/console.md). Any body is checked: malformed JSON,
        an empty body or a value that is no theme is a problem with its place in a 200 answer, never a 400.
      security: [{bearer: []}]
      requestBody:
        required: false
        content:
          application/json:
            schema: {description: the theme text as pasted}
      responses:
        '200':
          description: Every problem with its path, line and column; for a theme without errors the stylesheet the loader page injects.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/ThemeCheck'}
        '401': {$ref: '#/components/responses/Error'}
        '413': {$ref: '#/components/responses/Error'}
  /admin/console/themes:
    get:
      operationId: consoleThemes
      security: [{bearer: []}]
      responses:
        '200':
          description: Every uploaded theme, newest version first.
          content:
            application/json:
              schema:
                type: array
                items: {$ref: '#/components/schemas/ConsoleTheme'}
        '401': {$ref: '#/components/responses/Error'}
  /admin/console/apps:
    get:
      operationId: consoleApps
      security: [{bearer: []}]
      responses:
        '200':
          description: Every app with its release, pin and version numbers (lowest first), by name.
          content:
            application/json:
              schema:
                type: array
                items: {$ref: '#/components/schemas/ConsoleApp'}
        '401': {$ref: '#/components/responses/Error'}
  /admin/console/apps/{app}/versions:
    get:
      operationId: consoleVersions
      security: [{bearer: []}]
      parameters:
        - $ref: '#/components/parameters/App'
      responses:
        '200':
          description: The app's versions, lowest first, with sizes, hashes and upload times.
          content:
            application/json:
              schema:
                type: array
                items: {$ref: '#/components/schemas/ConsoleVersion'}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /admin/console/apps/{app}/releases:
    get:
      operationId: consoleReleases
      security: [{bearer: []}]
      parameters:
        - $ref: '#/components/parameters/App'
      responses:
        '200':
          description: The newest 50 releases of the app, newest first (a rollback is a new row).
          content:
            application/json:
              schema:
                type: array
                maxItems: 50
                items: {$ref: '#/components/schemas/ConsoleRelease'}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /admin/console/audit:
    get:
      operationId: consoleAudit
      description: The audit list, newest first (docs/server.md, "Audit list").
      security: [{bearer: []}]
      parameters:
        - name: limit
          in: query
          required: false
          schema: {type: integer, minimum: 1, maximum: 200, default: 50}
        - name: before
          in: query
          required: false
          description: Only rows with a smaller id (the `next` of the page before).
          schema: {type: integer, format: int64, minimum: 1, maximum: 9223372036854775807}
      responses:
        '200':
          description: One page of the audit list.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/AuditPage'}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
  /admin/console/trace-timeline:
    post:
      operationId: consoleTraceTimeline
      description: >-
        Reads an NDJSON trace (as `--trace` and TraceRecorder write it) as the timeline `statehub trace view`
        shows, for the console's Traces screen (docs/console.md); nothing is stored. A last line cut mid-record
        (no final newline, its JSON ending before its value does) is left out and named in `cutLine`; any
        other line that is not a record, the last one included, is a 422 `invalid-trace` naming the line.
        The body is capped by ServerConfiguration.maxTraceBytes (8 MiB by default), and the timeline by bounds
        in proportion to it: an answer of at most 8 times the cap (64 MiB), and at most one null per 8 bytes of
        the cap (1,048,576) added to arrays by the trace's ops; past either, 422 `timeline-too-large` naming the
        bound and the record. The timeline is built off the event loops, at most
        ServerConfiguration.maxConcurrentTraceTimelines (2) at once; past that, 503 `busy` with Retry-After.
      security: [{bearer: []}]
      requestBody:
        required: false
        description: NDJSON, one trace record (a JSON object) a line; the server reads the bytes whatever the Content-Type says.
        content:
          application/x-ndjson:
            schema: {type: string}
          text/plain:
            schema: {type: string}
      responses:
        '200':
          description: The timeline's steps, one per record, in the shape `statehub trace show --json` prints them.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/TraceTimeline'}
        '401': {$ref: '#/components/responses/Error'}
        '413': {$ref: '#/components/responses/Error'}
        '422': {$ref: '#/components/responses/Error'}
        '503':
          description: Already building as many timelines as the server allows at once; try again after Retry-After seconds.
          headers:
            Retry-After: {schema: {type: integer}}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
  /admin/documents/{document}:
    get:
      operationId: describeDocument
      security: [{bearer: []}]
      parameters: [{$ref: '#/components/parameters/Document'}]
      responses:
        '200':
          description: The stored document's sizes and state vector.
          content:
            application/json:
              schema:
                type: object
                required: [name, updates, updateBytes, snapshotBytes, stateVector]
                properties:
                  name: {type: string}
                  updates: {type: integer, description: Updates stored after the snapshot.}
                  updateBytes: {type: integer}
                  snapshotBytes: {type: integer}
                  stateVector: {type: object, additionalProperties: {type: integer}, description: Client id → clock.}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
  /admin/documents/{document}/update:
    get:
      operationId: documentUpdate
      security: [{bearer: []}]
      parameters: [{$ref: '#/components/parameters/Document'}]
      responses:
        '200':
          description: The whole document as one Yjs v1 update.
          content:
            application/octet-stream:
              schema: {type: string, format: binary}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
  /admin/documents/{document}/tokens:
    post:
      operationId: createDocumentToken
      security: [{bearer: []}]
      parameters: [{$ref: '#/components/parameters/Document'}]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              required: [access]
              properties:
                access: {type: string, enum: [read, read-write]}
                label: {type: string, maxLength: 128}
      responses:
        '201':
          description: The new document token, shown once.
          content:
            application/json:
              schema:
                type: object
                required: [id, document, access, token]
                properties:
                  id: {type: integer}
                  document: {type: string}
                  access: {type: string, enum: [read, read-write]}
                  token: {type: string}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '413': {$ref: '#/components/responses/Error'}
    get:
      operationId: listDocumentTokens
      security: [{bearer: []}]
      parameters: [{$ref: '#/components/parameters/Document'}]
      responses:
        '200':
          description: The document's tokens (never the tokens themselves).
          content:
            application/json:
              schema:
                type: array
                items:
                  type: object
                  required: [id, access, label, createdAt]
                  properties:
                    id: {type: integer}
                    access: {type: string, enum: [read, read-write]}
                    label: {type: string}
                    createdAt: {type: integer, description: Seconds since 1970.}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
  /admin/documents/{document}/tokens/{id}:
    delete:
      operationId: deleteDocumentToken
      security: [{bearer: []}]
      parameters:
        - {$ref: '#/components/parameters/Document'}
        - name: id
          in: path
          required: true
          schema: {type: integer}
      responses:
        '204': {description: Deleted; its open connections are closed.}
        '400': {$ref: '#/components/responses/Error'}
        '401': {$ref: '#/components/responses/Error'}
        '404': {$ref: '#/components/responses/Error'}
components:
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
  parameters:
    Document:
      name: document
      in: path
      required: true
      schema: {type: string, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$', example: board-alpha}
    App:
      name: app
      in: path
      required: true
      schema: {type: string, pattern: '^[a-z0-9][a-z0-9-]{0,63}$', example: cart}
    Version:
      name: version
      in: path
      required: true
      schema: {$ref: '#/components/schemas/SemanticVersion'}
    User:
      name: user
      in: query
      required: true
      schema: {type: string, pattern: '^[A-Za-z0-9_-]{1,64}$', example: alice}
    NativeVersion:
      name: nativeVersion
      in: query
      required: false
      schema: {$ref: '#/components/schemas/SemanticVersion'}
    IfNoneMatch:
      name: If-None-Match
      in: header
      required: false
      schema: {type: string}
    IfMatchRelease:
      name: If-Match
      in: header
      required: false
      description: >-
        The release's tag from GET /admin/apps/{app} (`"release-<id>"`, `"release-none"`) or `*`; when the current
        release is another one the write is refused with 412 release-changed (docs/server.md, "Saving over a concurrent change").
      schema: {type: string}
  responses:
    Error:
      description: What was wrong.
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
  schemas:
    SemanticVersion:
      description: A semantic version (semver.org 2.0.0, strict); the server accepts pre-release and build parts too.
      type: string
      maxLength: 64
      pattern: '^(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})$'
      example: 1.0.0
    Error:
      type: object
      required: [error, message]
      properties:
        error: {type: string}
        message: {type: string}
        problems:
          type: array
          items: {$ref: '#/components/schemas/Problem'}
    Problem:
      description: One problem of a document, at its JSON path.
      type: object
      required: [path, severity, message]
      properties:
        path: {type: string}
        severity: {type: string, enum: [error, warning]}
        message: {type: string}
    Asset:
      type: object
      required: [url, sha256, size]
      properties:
        url: {type: string}
        sha256: {type: string, pattern: '^[0-9a-f]{64}$'}
        size: {type: integer}
    PathAsset:
      type: object
      required: [path, url, sha256, size]
      properties:
        path: {type: string, maxLength: 255}
        url: {type: string}
        sha256: {type: string, pattern: '^[0-9a-f]{64}$'}
        size: {type: integer}
    Manifest:
      type: object
      required: [app, version, reason, bucket, bundle, assets, minNativeVersion]
      properties:
        app: {type: string}
        version: {type: string}
        reason: {type: string, enum: [pinned, user, rollout, variant, stable, native-fallback]}
        variant: {type: string, nullable: true}
        bucket: {type: integer, minimum: 0, maximum: 9999}
        bundle: {$ref: '#/components/schemas/Asset'}
        stylesheet:
          allOf: [{$ref: '#/components/schemas/Asset'}]
          nullable: true
        assets:
          type: array
          items: {$ref: '#/components/schemas/PathAsset'}
        minNativeVersion: {type: string}
        signature:
          description: The publisher's signature of the version (docs/server.md, "Signed releases"); null when unsigned.
          allOf: [{$ref: '#/components/schemas/VersionSignature'}]
          nullable: true
    VersionSignature:
      description: >-
        An Ed25519 signature of the version's release statement (docs/server.md, "Signed releases").
        The server checks its form only; devices verify it against the keys the app ships.
      type: object
      additionalProperties: false
      required: [keyId, value]
      properties:
        keyId: {type: string, pattern: '^[0-9a-f]{16}$'}
        value: {type: string, format: byte, minLength: 88, maxLength: 88, description: standard base64 of the 64-byte signature}
    VersionUpload:
      type: object
      additionalProperties: false
      required: [bundle]
      properties:
        bundle: {type: string}
        stylesheet: {type: string}
        minNativeVersion: {type: string}
        assets:
          description: At most 256; 4 MiB each and 16 MiB together, decoded (docs/server.md, "Assets").
          type: array
          maxItems: 256
          items:
            type: object
            additionalProperties: false
            required: [path, data]
            properties:
              path: {type: string, maxLength: 255}
              data: {type: string, format: byte, description: standard base64 of the file}
        signature: {$ref: '#/components/schemas/VersionSignature'}
    Arm:
      type: object
      additionalProperties: false
      required: [version, percent]
      properties:
        version: {type: string}
        percent: {type: number, minimum: 0, maximum: 100, multipleOf: 0.01, description: 'hundredths of a percent at most (10.25, not 10.255: 400)'}
        label:
          type: string
          minLength: 1
          maxLength: 32
          description: >-
            Both arms of an A/B pair, each its own; neither for a rollout (400 otherwise). No control or
            format character (bidirectional controls, zero-width characters: 400).
    Release:
      description: >-
        As an admin body, a member not listed here or a key written twice is refused with 400 naming it
        (explicit users are data: any id is a key).
      type: object
      additionalProperties: false
      required: [stable]
      properties:
        stable: {type: string}
        arms:
          type: array
          maxItems: 2
          items: {$ref: '#/components/schemas/Arm'}
        users:
          type: object
          description: user id → version; a user id with a control or format character is refused with 400.
          additionalProperties: {type: string}
    AppState:
      type: object
      required: [app, versions]
      properties:
        app: {type: string}
        versions:
          type: array
          items:
            type: object
            required: [version, minNativeVersion, bundle, assets]
            properties:
              version: {type: string}
              minNativeVersion: {type: string}
              bundle: {$ref: '#/components/schemas/Asset'}
              stylesheet:
                allOf: [{$ref: '#/components/schemas/Asset'}]
                nullable: true
              assets:
                type: array
                items: {$ref: '#/components/schemas/PathAsset'}
              signature:
                allOf: [{$ref: '#/components/schemas/VersionSignature'}]
                nullable: true
        release:
          allOf: [{$ref: '#/components/schemas/Release'}]
          nullable: true
        pinnedVersion: {type: string, nullable: true}
    ThemeCheck:
      type: object
      required: [valid, problems, colors, fonts, components]
      properties:
        valid: {type: boolean}
        version: {type: string}
        problems:
          type: array
          items:
            allOf:
              - {$ref: '#/components/schemas/Problem'}
              - type: object
                properties:
                  line: {type: integer, minimum: 1}
                  column: {type: integer, minimum: 1}
        stylesheet: {type: string}
        colors: {$ref: '#/components/schemas/ThemeNames'}
        fonts: {$ref: '#/components/schemas/ThemeNames'}
        components: {$ref: '#/components/schemas/ThemeNames'}
    ThemeNames:
      description: A name with its custom property (a colour) or property prefix (a font, a component).
      type: array
      items:
        type: object
        required: [name, variable]
        properties:
          name: {type: string}
          variable: {type: string, pattern: '^--'}
    ConsoleTheme:
      type: object
      required: [version, major, sha256, published, current, createdAt]
      properties:
        version: {type: string}
        major: {type: integer, minimum: 0}
        sha256: {type: string, pattern: '^[0-9a-f]{64}$'}
        published: {type: boolean}
        current: {type: boolean, description: the theme /themes/current answers for its major}
        createdAt: {type: integer, description: seconds since 1970}
    ConsoleApp:
      type: object
      required: [name, versions]
      properties:
        name: {type: string}
        release: {$ref: '#/components/schemas/Release'}
        pinnedVersion: {type: string}
        versions:
          type: array
          items: {type: string}
    ConsoleVersion:
      type: object
      required: [version, minNativeVersion, createdAt, bundle, assetCount, totalBytes]
      properties:
        version: {type: string}
        minNativeVersion: {type: string}
        createdAt: {type: integer, description: seconds since 1970}
        bundle: {$ref: '#/components/schemas/BlobRef'}
        stylesheet: {$ref: '#/components/schemas/BlobRef'}
        assetCount: {type: integer, minimum: 0}
        totalBytes: {type: integer, minimum: 0}
        signatureKeyId: {type: string, pattern: '^[0-9a-f]{16}$', description: the key id of the version's signature; absent when unsigned}
    BlobRef:
      type: object
      required: [sha256, size]
      properties:
        sha256: {type: string, pattern: '^[0-9a-f]{64}$'}
        size: {type: integer, minimum: 0}
    ConsoleRelease:
      type: object
      required: [id, release, createdAt, current]
      properties:
        id: {type: integer}
        release: {$ref: '#/components/schemas/Release'}
        previousID: {type: integer}
        createdAt: {type: integer, description: seconds since 1970}
        current: {type: boolean}
    AuditPage:
      type: object
      required: [entries]
      properties:
        entries:
          type: array
          items: {$ref: '#/components/schemas/AuditEntry'}
        next: {type: integer, description: the `before` of the following page; absent on the last}
    AuditEntry:
      type: object
      required: [id, at, author, action, target]
      properties:
        id: {type: integer}
        at: {type: integer, description: seconds since 1970}
        author:
          type: object
          required: [tokenID, label]
          properties:
            tokenID: {type: integer}
            label: {type: string}
        action:
          type: string
          enum: [version.upload, theme.upload, theme.publish, theme.unpublish, release.set, release.rollback, pin.set, pin.lift,
                 token.create, token.delete, document-token.create, document-token.delete]
        target: {type: string}
        before: {$ref: '#/components/schemas/AuditState'}
        after: {$ref: '#/components/schemas/AuditState'}
    TraceTimeline:
      type: object
      required: [records, steps]
      properties:
        records: {type: integer, minimum: 0, description: the records read}
        cutLine: {type: integer, minimum: 1, description: the last line, cut mid-record and left out}
        steps:
          type: array
          items:
            type: object
            required: [step, time, direction, channel, engine, type, size, changes]
            properties:
              step: {type: integer, minimum: 0}
              time: {type: number, minimum: 0}
              direction: {type: string, enum: [web_to_native, native_to_web]}
              channel: {type: string}
              engine: {type: string}
              store: {type: string}
              type: {type: string}
              seq: {type: integer}
              size: {type: integer, minimum: 0}
              note: {type: string}
              action: {type: string, description: the action the step belongs to (cart.add)}
              innerAction: {type: string}
              summary: {type: string}
              refused: {type: string, description: why the hub refused this message's ops}
              changes:
                type: array
                items:
                  type: object
                  required: [path, kind]
                  properties:
                    path: {type: string}
                    kind: {type: string, enum: [set, delete, splice, snapshot]}
                    old: {description: the value before (absent when there was none)}
                    new: {description: the value after (absent for a delete)}
                    refused: {type: boolean}
              snapshot: {description: the store's whole new state}
              ops: {type: array, items: {type: object}, description: the operations to apply (docs/PROTOCOL.md A.2)}
    AuditState:
      description: One side of a change; which keys an action fills is in docs/server.md ("Audit list"); an absent key means none.
      type: object
      properties:
        release: {$ref: '#/components/schemas/Release'}
        userCount: {type: integer, minimum: 0, description: the explicit users the release names}
        usersChanged: {type: integer, minimum: 0, description: the explicit users the change touched; release.users lists at most 20 of them}
        pinnedVersion: {type: string}
        published: {type: boolean}
        current: {type: string}
        sha256: {type: string, pattern: '^[0-9a-f]{64}$'}
        size: {type: integer, minimum: 0}
        minNativeVersion: {type: string}
        assetCount: {type: integer, minimum: 0}
        label: {type: string}
        access: {type: string, enum: [read, read-write]}
"""#
}
