import Foundation

/// `document.currentScript` while a delivered bundle's top level runs (``HostedPage/Bundle/scriptURL``),
/// as a browser gives it, so one asset recipe works in the loader page and in the engine.
///
/// The engine has no DOM: when the page has no `document`, one is made with `currentScript`
/// alone and removed again after the top level, so code that tests `typeof document` later
/// sees what it saw before. As in a browser, `currentScript` is `null` afterwards: a bundle
/// reads it at its top level.
enum CurrentScript {
    static let leaveKey = "Symbol.for('statehub.page.leaveCurrentScript')"

    static func enter(_ scriptURL: String) -> String {
        let literal = String(decoding: (try? JSONEncoder().encode(scriptURL)) ?? Data("\"\"".utf8), as: UTF8.self)
        return """
        (() => {
          const g = globalThis;
          const made = typeof g.document === 'undefined';
          if (made) g.document = {};
          g.document.currentScript = Object.freeze({ src: \(literal) });
          g[\(leaveKey)] = () => { if (made) delete g.document; else g.document.currentScript = null; };
        })();
        """
    }

    static let leave = """
    (() => {
      const leave = globalThis[\(leaveKey)];
      delete globalThis[\(leaveKey)];
      if (typeof leave === 'function') leave();
    })();
    """
}
