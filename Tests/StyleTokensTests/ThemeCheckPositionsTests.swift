import Foundation
import Testing
@testable import StyleTokens

/// Every problem's line and column come from one sweep of the text: counted from each line's
/// start, a one-line theme with 60,000 problems would take an hour to check, holding the
/// server's admin route.
@Suite("theme check: positions of many problems on one line", .tags(.unit))
struct ThemeCheckPositionsTests {
    @Test func everyProblemOnOneLongLineHasItsOwnColumn() throws {
        // Two-byte scalars before the colours, so columns (scalars) differ from byte offsets.
        let count = 20_000
        var text = #"{"metadata":{"version":"1.0.0","description":"ééééé"},"colors":{"#
        var expected: [String: Int] = [:]
        for index in 0..<count {
            if index > 0 { text += "," }
            expected["colors.c\(index)"] = text.unicodeScalars.count + 1
            text += #""c\#(index)":"zz""#
        }
        text += "}}"
        let report = ThemeCheck.run(data: Data(text.utf8), fileName: "one-line.json")
        let colourIssues = report.issues.filter { $0.path.hasPrefix("colors.c") }
        #expect(colourIssues.count == count)
        for issue in colourIssues {
            #expect(issue.line == 1)
            #expect(issue.column == expected[issue.path], "\(issue.path)")
        }
    }
}
