import Testing
@testable import JSEngine

@Suite("URL and URLSearchParams", .tags(.engine))
struct URLTests {
    private func parts(_ engine: JavaScriptEngine, _ construction: String) async throws -> JSONValue {
        try await engine.evaluate("""
            (() => { const u = \(construction);
              return {href: u.href, protocol: u.protocol, host: u.host, hostname: u.hostname, port: u.port,
                      pathname: u.pathname, search: u.search, hash: u.hash, origin: u.origin}; })()
            """)
    }

    @Test func parsesAbsoluteURL() async throws {
        let engine = try JavaScriptEngine()
        let value = try await parts(engine, "new URL('HTTPS://User:pw@Example.COM:8443/a/./b/../c?q=1&r=two#frag')")
        #expect(value == [
            "href": "https://User:pw@example.com:8443/a/c?q=1&r=two#frag", "protocol": "https:", "host": "example.com:8443",
            "hostname": "example.com", "port": "8443", "pathname": "/a/c", "search": "?q=1&r=two", "hash": "#frag",
            "origin": "https://example.com:8443",
        ])
        #expect(try await engine.evaluate("new URL('https://example.com').pathname") == "/")
        #expect(try await engine.evaluate("new URL('http://example.com:80/x').port") == "") // default port dropped
        #expect(try await engine.evaluate("String(new URL('https://example.com/a b'))") == "https://example.com/a%20b")
    }

    @Test func resolvesRelativeURLs() async throws {
        let engine = try JavaScriptEngine()
        let base = "'https://example.com/app/page.html?x=1#top'"
        #expect(try await engine.evaluate("new URL('other.html', \(base)).href") == "https://example.com/app/other.html")
        #expect(try await engine.evaluate("new URL('../up', \(base)).href") == "https://example.com/up")
        #expect(try await engine.evaluate("new URL('/root?y=2', \(base)).href") == "https://example.com/root?y=2")
        #expect(try await engine.evaluate("new URL('?only=query', \(base)).href") == "https://example.com/app/page.html?only=query")
        #expect(try await engine.evaluate("new URL('#hash', \(base)).href") == "https://example.com/app/page.html?x=1#hash")
        #expect(try await engine.evaluate("new URL('//cdn.example.org/lib.js', \(base)).href") == "https://cdn.example.org/lib.js")
        #expect(try await engine.evaluate("new URL('b', new URL(\(base))).href") == "https://example.com/app/b")
    }

    @Test func rejectsInvalidURLs() async throws {
        let engine = try JavaScriptEngine()
        for input in ["'no scheme'", "'https://'", "'http://example.com:99999/'"] {
            let error = await #expect(throws: JavaScriptError.self) { try await engine.evaluate("new URL(\(input))") }
            #expect(error?.name == "TypeError")
        }
        #expect(try await engine.evaluate("[URL.canParse('https://a.b'), URL.canParse('relative'), URL.canParse('relative', 'https://a.b')]") == [true, false, true])
    }

    @Test func searchParamsGetSetAppendToString() async throws {
        let engine = try JavaScriptEngine()
        let value = try await engine.evaluate("""
            const p = new URLSearchParams('?a=1&b=two+words&a=3&enc=%C3%A9%26');
            const out = [p.get('a'), p.getAll('a'), p.get('b'), p.get('enc'), p.get('missing'), p.has('b')];
            p.append('c', 'x y&z');
            p.set('a', '9');
            p.delete('b');
            out.push(p.toString(), p.size);
            out.push(new URLSearchParams({k: 'v', n: 1}).toString(), new URLSearchParams([['x', '1'], ['y', '2']]).toString());
            out
            """)
        #expect(value == ["1", ["1", "3"], "two words", "é&", nil, true, "a=9&enc=%C3%A9%26&c=x+y%26z", 3, "k=v&n=1", "x=1&y=2"])
    }

    @Test func searchParamsStayInSyncWithURL() async throws {
        let engine = try JavaScriptEngine()
        let value = try await engine.evaluate("""
            const u = new URL('https://example.com/path?x=1#h');
            u.searchParams.append('y', 'a b');
            const afterAppend = [u.search, u.href];
            u.search = '?z=3';
            const afterSearch = [u.searchParams.get('z'), u.searchParams.get('x')];
            u.searchParams.delete('z');
            [afterAppend, afterSearch, u.href, JSON.stringify({u})]
            """)
        #expect(value == [
            ["?x=1&y=a+b", "https://example.com/path?x=1&y=a+b#h"], ["3", nil], "https://example.com/path#h",
            #"{"u":"https://example.com/path#h"}"#,
        ])
    }
}
