/// Quotes text as a CSS string literal. Quotes, backslashes, control characters and `<`
/// are escaped, so a font name from the server cannot end the declaration, the rule, or the
/// `<style>` element it is injected into.
enum CSSString {
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "<", ">": result += "\\\(String(scalar.value, radix: 16)) "
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\\(String(scalar.value, radix: 16)) "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
