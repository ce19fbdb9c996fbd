/// One message as it crossed the web ↔ native boundary.
///
/// Records are created by ``TraceRecorder`` (which assigns ``step`` and ``time``)
/// or read back from an NDJSON file by ``TraceFile``.
///
/// Invariants (checked when decoding, kept by the recorder):
/// - `step >= 0`; within one recorder, steps are consecutive in recording order.
/// - `time` never decreases as `step` increases within one recorder.
/// - `size >= 0` is the UTF-8 byte count of the message *as it crossed*, before
///   redaction; `message` is the text *after* redaction, so `message.utf8.count`
///   may differ from `size`.
///
/// Encoded as one JSON object whose keys are the property names; `nil` optionals
/// are omitted. See docs/trace.md for the exact line format.
public struct TraceRecord: Codable, Sendable, Equatable, Hashable {
    /// 0-based position in the trace, assigned by the recorder in order.
    public var step: Int
    /// Monotonic nanoseconds since the recorder started.
    public var time: UInt64
    /// Which way the message went.
    public var direction: TraceDirection
    /// `"nativeBridge"` for store sync, `"bridge"` for capability calls (see ``TraceChannel``).
    public var channel: String
    /// Identifier of the engine (page) on the other side.
    public var engine: String
    /// The store the message is about, when it is about one.
    public var store: String?
    /// The message type, e.g. `"apply_mutation"`, `"dispatch_action"`, `"invoke"`, `"reply"`, `"event"`.
    public var type: String
    /// The per-store sequence number the message carried, if any.
    public var seq: Int?
    /// Bytes (UTF-8) of the message as it crossed, before redaction.
    public var size: Int
    /// The full JSON text of the message, after redaction.
    public var message: String
    /// Anything the hub or bridge wants to say about this message (e.g. an error it hit).
    public var note: String?

    /// Creates a record. Normally only ``TraceRecorder`` and tests call this.
    ///
    /// - Parameter size: defaults to the UTF-8 byte count of `message`.
    public init(
        step: Int,
        time: UInt64,
        direction: TraceDirection,
        channel: String,
        engine: String,
        store: String? = nil,
        type: String,
        seq: Int? = nil,
        size: Int? = nil,
        message: String,
        note: String? = nil
    ) {
        self.step = step
        self.time = time
        self.direction = direction
        self.channel = channel
        self.engine = engine
        self.store = store
        self.type = type
        self.seq = seq
        self.size = size ?? message.utf8.count
        self.message = message
        self.note = note
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case channel, direction, engine, message, note, seq, size, step, store, time, type
    }

    /// Decodes a record, rejecting a negative `step` or `size`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let step = try c.decode(Int.self, forKey: .step)
        guard step >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .step, in: c, debugDescription: "must not be negative (got \(step))")
        }
        let size = try c.decode(Int.self, forKey: .size)
        guard size >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .size, in: c, debugDescription: "must not be negative (got \(size))")
        }
        self.step = step
        self.size = size
        self.time = try c.decode(UInt64.self, forKey: .time)
        self.direction = try c.decode(TraceDirection.self, forKey: .direction)
        self.channel = try c.decode(String.self, forKey: .channel)
        self.engine = try c.decode(String.self, forKey: .engine)
        self.store = try c.decodeIfPresent(String.self, forKey: .store)
        self.type = try c.decode(String.self, forKey: .type)
        self.seq = try c.decodeIfPresent(Int.self, forKey: .seq)
        self.message = try c.decode(String.self, forKey: .message)
        self.note = try c.decodeIfPresent(String.self, forKey: .note)
    }

    /// Encodes with the same keys as the NDJSON writer; `nil` optionals are omitted.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(channel, forKey: .channel)
        try c.encode(direction, forKey: .direction)
        try c.encode(engine, forKey: .engine)
        try c.encode(message, forKey: .message)
        try c.encodeIfPresent(note, forKey: .note)
        try c.encodeIfPresent(seq, forKey: .seq)
        try c.encode(size, forKey: .size)
        try c.encode(step, forKey: .step)
        try c.encodeIfPresent(store, forKey: .store)
        try c.encode(time, forKey: .time)
        try c.encode(type, forKey: .type)
    }
}
