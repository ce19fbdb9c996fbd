import Testing
import StateHubJSON

/// An operation's path is walked without recursion, whatever its length: a trace's records can
/// each reach deeper than the last, and the timeline applies them with this code.
@Suite("deep paths", .tags(.unit))
struct DeepPathTests {
    static let depth = 100_000

    /// `depth` objects nested under key `k` around `inner`, built without recursion.
    static func chain(_ depth: Int, around inner: JSONValue = .object([:])) -> JSONValue {
        var value = inner
        for _ in 0..<depth { value = .object(["k": value]) }
        return value
    }

    /// Recursing once per step, as the walk did, overflows the stack long before 100,000 steps.
    @Test func anOperationAtTheEndOfAVeryLongPathApplies() throws {
        var state = Self.chain(Self.depth)
        let path = [PathStep](repeating: .key("k"), count: Self.depth)
        try state.apply(.set(path: path + [.key("leaf")], value: 1))
        var node = state
        for _ in 0..<Self.depth { node = node["k"] ?? .null }
        let leaf = node["leaf"]
        #expect(leaf == 1)
        node = .null
        (consume state).dismantle()
    }

    /// A path that breaks off deep down fails, naming where, and leaves the value as it was.
    @Test func aLongPathThatBreaksOffFailsAndLeavesTheValue() {
        var state = Self.chain(Self.depth)
        let path = [PathStep](repeating: .key("k"), count: Self.depth + 1) + [.key("leaf")]
        var failure: MutationOpError?
        do { try state.apply(.set(path: path, value: 1)) } catch { failure = error }
        #expect(failure?.reason.contains("on the way") == true)
        let expected = Self.chain(Self.depth)
        let same = state == expected
        #expect(same)
        (consume state).dismantle()
        (consume expected).dismantle()
    }
}
