import Testing
@testable import CapabilityBridge

/// An allowed host means its https default port unless a port is listed.
@Suite("Allowlist ports", .tags(.unit))
struct URLAllowlistPortTests {
    let list = URLAllowlist(hosts: ["shop.example.com", "*.cdn.example.com", "admin.example.com:8443", "Pay.Example.com:443"])

    @Test(arguments: [
        "https://shop.example.com/", "https://shop.example.com:443/cart", "https://a.cdn.example.com/x.js",
        "https://admin.example.com:8443/", "https://pay.example.com/", "https://pay.example.com:443/",
    ])
    func allowed(url: String) {
        #expect(list.violation(for: url) == nil)
    }

    @Test(arguments: [
        "https://shop.example.com:8443/", "https://shop.example.com:0/", "https://shop.example.com:99999/",
        "https://shop.example.com:80/", "https://a.cdn.example.com:8443/", "https://admin.example.com/",
        "https://admin.example.com:443/", "https://admin.example.com:9443/", "https://shop.example.com:-1/",
    ])
    func refused(url: String) {
        #expect(list.violation(for: url) != nil)
    }

    @Test func theReasonNamesThePort() {
        #expect(list.violation(for: "https://shop.example.com:8443/")?.contains("port 8443") == true)
        #expect(list.violation(for: "https://shop.example.com:0/")?.contains("port 0") == true)
    }
}
