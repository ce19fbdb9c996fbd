import Foundation
import Hummingbird

/// An error the server answers with a JSON body `{"error": code, "message": …, "problems"?: […]}`
/// (docs/server.md). A struct over a code string so new codes do not break users.
public struct ServerError: Error, HTTPResponseError, Sendable, CustomStringConvertible {
    /// One problem of a rejected document, with its JSON path.
    public struct Problem: Sendable, Hashable, Codable {
        public var path: String
        public var severity: String
        public var message: String
    }

    public let status: HTTPResponse.Status
    public let code: String
    public let message: String
    public let problems: [Problem]?

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, problems: [Problem]? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.problems = problems
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    static func badRequest(_ message: String) -> ServerError { ServerError(.badRequest, "bad-request", message) }
    static func notFound(_ code: String, _ message: String) -> ServerError { ServerError(.notFound, code, message) }
    static let unauthorized = ServerError(.unauthorized, "unauthorized", "a valid bearer token is required")
    static func tooLarge(_ limit: Int) -> ServerError { ServerError(.contentTooLarge, "too-large", "the body exceeds \(limit) bytes") }
    static let storage = ServerError(.internalServerError, "storage", "the database could not answer")

    private struct Body: Encodable {
        var error: String
        var message: String
        var problems: [Problem]?
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }

    /// The answer, for a route that adds headers of its own before returning it.
    var response: Response {
        Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The JSON body. Sorted keys: Foundation's encoder on Linux does not keep declaration order,
    /// and clients and tests diff these bodies (`error`, `message`, `problems`; `message`, `path`, `severity`).
    var body: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(Body(error: code, message: message, problems: problems))) ?? Data()
    }

    var headers: HTTPFields {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        if code == "busy" { headers[.retryAfter] = "2" }
        return headers
    }
}
