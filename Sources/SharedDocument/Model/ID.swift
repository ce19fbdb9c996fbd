/// A struct's identity: the client that made it and its clock on that client.
public struct ID: Hashable, Sendable, CustomStringConvertible {
    public var client: Int
    public var clock: Int

    public init(client: Int, clock: Int) {
        self.client = client
        self.clock = clock
    }

    public var description: String { "\(client):\(clock)" }
}
