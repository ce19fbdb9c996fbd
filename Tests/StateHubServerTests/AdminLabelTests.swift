import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import StateHubServer
import Testing

/// Labels admins type and others read back refuse control and format characters with a 400
/// naming the field: a U+202E in a token's label made the audit list show
/// another author name than the one stored.
@Suite(.tags(.unit)) struct AdminLabelTests {
    @Test func controlAndFormatCharactersInLabelsAreRefusedNamingTheField() async throws {
        try await TestServer.sqlite().test(.router) { client in
            for (label, character) in [("ci\u{202E}nimda", "U+202E"), ("tab\there", "U+0009"), ("zero\u{200B}width", "U+200B"),
                                       ("line\u{2028}break", "U+2028"), ("bell\u{7}", "U+0007"), ("c1\u{85}", "U+0085")] {
                let body = try String(decoding: JSONEncoder().encode(["label": label]), as: UTF8.self)
                let answer = try await client.admin(.post, "/admin/tokens", json: body)
                #expect(answer.status == .badRequest, "\(character)")
                let text = String(buffer: answer.body)
                #expect(text.contains("label: the control or format character \(character)"), "\(text)")
                let document = try await client.admin(.post, "/admin/documents/board/tokens",
                                                      json: try String(decoding: JSONEncoder().encode(["access": "read", "label": label]), as: UTF8.self))
                #expect(document.status == .badRequest, "document token, \(character)")
                #expect(String(buffer: document.body).contains("label: the control or format character \(character)"))
            }
            #expect(String(buffer: try await client.admin(.get, "/admin/console/audit").body) == #"{"entries":[]}"#, "nothing was made")

            #expect(try await client.admin(.put, "/admin/apps/cart/versions/1.0.0", json: #"{"bundle":"x"}"#).status == .created)
            let release = try await client.admin(.put, "/admin/apps/cart/release",
                                                 json: #"{"stable":"1.0.0","arms":[{"version":"1.0.0","percent":10,"label":"A\u202e"}]}"#)
            #expect(release.status == .badRequest)
            #expect(String(buffer: release.body).contains("arms[0].label: the character U+202E is not allowed"))

            // Letters of any script, accents, emoji and spaces are labels like any other.
            #expect(try await client.admin(.post, "/admin/tokens", json: #"{"label":"Zoë's laptop — 東京 🚀"}"#).status == .created)
        }
    }
}
