/// `showAlert` payload: `message` required; `title` optional; `buttons` optional (`["OK"]`).
public struct ShowAlertPayload: Codable, Sendable, Hashable {
    public var title: String?
    public var message: String
    public var buttons: [String]?
}
