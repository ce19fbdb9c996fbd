import Foundation
import StateHubJSON

/// Bytes → decoded contract → validated, resolved theme: the one path every theme takes
/// (bundled default, cache, source, CLI).
public enum ThemeLoader {
    /// Decodes, validates and resolves `data`. O(n) in its size.
    public static func load(_ data: Data) throws(ThemeLoadError) -> ResolvedTheme {
        let contract: ThemeContract
        do {
            contract = try ThemeContract(jsonData: data)
        } catch {
            throw .undecodable(error)
        }
        do {
            return try ThemeResolver.resolve(contract)
        } catch {
            throw .invalid(error)
        }
    }

    /// Everything known about `data`: the issues (errors and warnings) and the resolved theme
    /// when there are no errors. Every problem is reported in one pass, each with its JSON
    /// path and its line and column: every JSON structure problem (a collecting parse), else
    /// every missing field and wrong type (`ThemeSchema`) together with every problem of the
    /// values (`ThemeValidator`), in document order.
    public static func inspect(_ data: Data) -> (issues: [ThemeIssue], theme: ResolvedTheme?) {
        let bytes = [UInt8](data)
        let decoder = ThemeJSONDecoder()
        let document: JSONValue
        do {
            document = try decoder.parse(data)
        } catch {
            switch error {
            case .malformedJSON, .duplicateKey:
                let issues = ThemeJSONReader.collectedIssues(bytes)
                if !issues.isEmpty { return (issues, nil) }
            default:
                break
            }
            return ([ThemeIssue(path: error.path, problem: .undecodable(error), line: error.location?.line, column: error.location?.column)], nil)
        }
        let schema = ThemeSchema(checking: document)
        var issues = schema.issues.map { (issue: $0.issue, anchor: $0.anchor) }
        var theme: ResolvedTheme?
        if let patched = schema.patched {
            do {
                let contract = try decoder.decode(ThemeContract.self, from: patched)
                let validated = ThemeValidator.validate(contract).filter { !schema.isConsequence($0) }
                issues += validated.map { ($0, $0.path) }
                if issues.allSatisfy({ $0.issue.severity != .error }) {
                    do { theme = try ThemeResolver.resolve(contract) } catch { issues = error.issues.map { ($0, $0.path) } }
                }
            } catch {
                // The schema walk and the contract's decoding disagree: report what decoding says.
                issues.append((ThemeIssue(path: error.path, problem: .undecodable(error)), error.path))
            }
        }
        if issues.contains(where: { $0.issue.severity == .error }) { theme = nil }
        guard !issues.isEmpty else { return ([], theme) }
        // Document order: by line and column; a missing field (placed at the object that
        // lacks it) before what that object holds.
        let positions = ThemeSourcePositions(bytes)
        let located = issues.enumerated().map { (index: $0.offset, issue: $0.element.issue.located(positions.location(of: $0.element.anchor))) }
        let sorted = located.sorted { lhs, rhs in
            (lhs.issue.line ?? 0, lhs.issue.column ?? 0, lhs.index) < (rhs.issue.line ?? 0, rhs.issue.column ?? 0, rhs.index)
        }
        return (sorted.map(\.issue), theme)
    }
}
