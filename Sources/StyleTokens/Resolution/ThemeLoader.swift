import Foundation

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

    /// Everything known about `data`: the issues (errors and warnings; every JSON structure
    /// problem with its line and column; or the one decoding error) and the resolved theme
    /// when there are no errors.
    public static func inspect(_ data: Data) -> (issues: [ThemeIssue], theme: ResolvedTheme?) {
        let contract: ThemeContract
        do {
            contract = try ThemeContract(jsonData: data)
        } catch {
            switch error {
            case .malformedJSON, .duplicateKey:
                let issues = ThemeJSONReader.collectedIssues([UInt8](data))
                if !issues.isEmpty { return (issues, nil) }
            default:
                break
            }
            return ([ThemeIssue(path: error.path, problem: .undecodable(error))], nil)
        }
        do {
            let theme = try ThemeResolver.resolve(contract)
            return (ThemeValidator.validate(contract), theme)
        } catch {
            return (error.issues, nil)
        }
    }
}
