import Dispatch
import Synchronization

/// Records every message that crosses the web ↔ native boundary.
///
/// Shared by the store hub (channel `nativeBridge`) and the capability bridge
/// (channel `bridge`), so one trace shows a page's whole conversation with native.
///
/// - **Memory**: the last `capacity` records are kept in a ring buffer
///   (default 10 000); older ones are dropped and counted in ``droppedCount``.
/// - **File** (optional): each record is also appended as one NDJSON line (format
///   in docs/trace.md). Records are batched; every `flushEvery` records a
///   background writer (a serial dispatch queue) encodes and writes the batch, so
///   JSON encoding stays off the recording thread. If the writer falls behind by
///   64 batches, the recording thread writes the backlog itself (back-pressure:
///   memory stays bounded). Call ``flush()`` to push out what is pending and
///   ``close()`` at the end. A write failure never reaches the hot path: the file
///   stops growing and ``flush()`` / ``close()`` throw it.
/// - **Live**: ``liveRecords(bufferingNewest:)`` streams records as they are made.
///
/// Invariants: `step`s are assigned 0, 1, 2, … in the order records enter the
/// lock, with no gaps or duplicates whatever the number of recording threads;
/// `time` (monotonic nanoseconds since `init`) is read under the same lock, so it
/// never decreases as `step` grows; ``records``, the file and every live stream
/// see records in step order.
///
/// Cost of ``record(_:channel:engine:store:type:seq:message:note:)`` without file
/// and stream: the redactor (if any), one clock read and one uncontended lock;
/// O(1), no allocation beyond the ring's growth up to `capacity` (the record
/// shares the caller's strings). With a file, one more array append, plus one
/// dispatch to the writer per batch.
public final class TraceRecorder: Sendable {
    /// How many records are kept in memory.
    public let capacity: Int
    /// The NDJSON file the records are appended to, if any.
    public let filePath: String?

    private let redactor: Redactor?
    private let flushEvery: Int
    /// Longest time a record waits before it is written to the file (`nil`: until a batch fills).
    public let flushInterval: Duration?
    /// ``MonotonicClock`` reading at `init`; ``TraceRecord/time`` is measured from it.
    private let start: UInt64
    private let state: Mutex<State>
    /// The background writer. Internal so a test can wait for the writes scheduled so far
    /// (`writer.sync {}`) instead of polling the file.
    let writer = DispatchQueue(label: "statehub.trace.writer", qos: .utility)
    /// Lock order: `file` before `state`, never the other way round.
    private let file: Mutex<NDJSONFileSink?>

    /// Batches the writer may fall behind by before recording threads write themselves.
    private static let backlogBatches = 64

    private enum FileAction { case none, schedule, scheduleTimed, writeNow }

    private struct State: Sendable {
        var ring: RingBuffer<TraceRecord>
        var nextStep = 0
        /// Records not yet handed to the file sink (only used with a file).
        var pending: [TraceRecord] = []
        let hasFile: Bool
        /// A write of `pending` is queued on `writer` and has not taken it yet.
        var writeScheduled = false
        /// A write after `flushInterval` is queued on `writer`.
        var timedWriteScheduled = false
        var closed = false
        var subscribers: [Int: AsyncStream<TraceRecord>.Continuation] = [:]
        var nextSubscriberID = 0
    }

    /// A recorder that keeps the last `capacity` records in memory only.
    ///
    /// - Parameters:
    ///   - capacity: records kept in memory (≥ 0; 0 keeps none, e.g. for live streams only).
    ///   - redactor: applied to every message before it is stored (see ``TraceRedactor``).
    public convenience init(capacity: Int = 10_000, redactor: Redactor? = nil) {
        self.init(capacity: capacity, sink: nil, redactor: redactor, flushEvery: 256, flushInterval: nil)
    }

    /// A recorder that keeps the last `capacity` records in memory and appends every
    /// record to the NDJSON file at `filePath` (created, or truncated if it exists).
    ///
    /// - Parameters:
    ///   - flushEvery: records batched before they are encoded and written (≥ 1).
    ///   - flushInterval: longest time a record waits for its batch to fill before it is
    ///     written anyway (default 100 ms), so a killed process leaves a useful file; `nil`
    ///     waits for full batches, `flush()` and `close()`.
    /// - Throws: ``TraceRecorderError/cannotOpen(path:reason:)``.
    public convenience init(
        capacity: Int = 10_000,
        filePath: String,
        redactor: Redactor? = nil,
        flushEvery: Int = 256,
        flushInterval: Duration? = .milliseconds(100)
    ) throws(TraceRecorderError) {
        let sink = try NDJSONFileSink(path: filePath)
        self.init(capacity: capacity, sink: sink, redactor: redactor, flushEvery: flushEvery, flushInterval: flushInterval)
    }

    private init(capacity: Int, sink: NDJSONFileSink?, redactor: Redactor?, flushEvery: Int, flushInterval: Duration?) {
        precondition(capacity >= 0, "TraceRecorder capacity must not be negative")
        precondition(flushEvery >= 1, "TraceRecorder flushEvery must be at least 1")
        self.capacity = capacity
        self.filePath = sink?.path
        self.redactor = redactor
        self.flushEvery = flushEvery
        self.flushInterval = flushInterval
        var initial = State(ring: RingBuffer(capacity: capacity), hasFile: sink != nil)
        if sink != nil { initial.pending.reserveCapacity(flushEvery) }
        self.state = Mutex(initial)
        self.file = Mutex(sink)
        self.start = MonotonicClock.now()
    }

    deinit {
        let subscribers = state.withLock { s in
            s.closed = true
            return Array(s.subscribers.values)
        }
        for continuation in subscribers { continuation.finish() }
        file.withLock { sink in
            writePending(&sink)
            sink?.close()
        }
    }

    // MARK: - Recording

    /// Records one message that crossed the boundary. Thread-safe; never throws.
    ///
    /// - Parameters:
    ///   - direction: which way it went.
    ///   - channel: `"nativeBridge"` or `"bridge"` (``TraceChannel``).
    ///   - engine: the engine / page id.
    ///   - store: the store it is about, if any.
    ///   - type: the message type (`"apply_mutation"`, `"invoke"`, …).
    ///   - seq: the sequence number it carried, if any.
    ///   - message: the full JSON text as it crossed; `size` is its UTF-8 length, and
    ///     what is stored is the redactor's output.
    ///   - note: e.g. the error the hub hit on this message.
    /// - Returns: the stored record, or `nil` once the recorder is closed.
    @discardableResult
    public func record(
        _ direction: TraceDirection,
        channel: String,
        engine: String,
        store: String? = nil,
        type: String,
        seq: Int? = nil,
        message: String,
        note: String? = nil
    ) -> TraceRecord? {
        let size = message.utf8.count
        let stored = redactor.map { $0(channel, type, message) } ?? message
        // Notes can echo values (an error about a message): the redactor sees them too.
        let note = note.flatMap { text in redactor.map { $0(channel, type, text) } ?? text }
        let (record, action): (TraceRecord?, FileAction) = state.withLock { s in
            guard !s.closed else { return (nil, .none) }
            let record = TraceRecord(
                step: s.nextStep, time: MonotonicClock.now() &- start, direction: direction,
                channel: channel, engine: engine, store: store, type: type, seq: seq,
                size: size, message: stored, note: note)
            s.nextStep += 1
            s.ring.append(record)
            for continuation in s.subscribers.values { continuation.yield(record) }
            guard s.hasFile else { return (record, .none) }
            s.pending.append(record)
            if s.pending.count >= flushEvery &* Self.backlogBatches { return (record, .writeNow) }
            if s.pending.count >= flushEvery, !s.writeScheduled {
                s.writeScheduled = true
                return (record, .schedule)
            }
            // The first record of a batch starts the clock: it reaches the file within
            // `flushInterval` even if the batch never fills.
            if s.pending.count == 1, !s.timedWriteScheduled, flushInterval != nil {
                s.timedWriteScheduled = true
                return (record, .scheduleTimed)
            }
            return (record, .none)
        }
        switch action {
        case .none:
            break
        case .schedule:
            writer.async { self.file.withLock { sink in self.writePending(&sink) } }
        case .scheduleTimed:
            let interval = flushInterval ?? .zero
            let nanoseconds = interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
            writer.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [weak self] in
                guard let self else { return }
                self.state.withLock { $0.timedWriteScheduled = false }
                self.file.withLock { sink in self.writePending(&sink) }
            }
        case .writeNow:
            file.withLock { sink in writePending(&sink) }
        }
        return record
    }

    /// Monotonic nanoseconds since this recorder was created (the clock of ``TraceRecord/time``).
    public var elapsedNanoseconds: UInt64 { MonotonicClock.now() &- start }

    /// Moves the pending records to the sink and writes them. Call with the file lock held.
    private func writePending(_ sink: inout NDJSONFileSink?) {
        guard sink != nil else { return }
        state.withLock { s in
            sink?.takeBatch(from: &s.pending)
            s.writeScheduled = false
        }
        sink?.writeBatch()
    }

    // MARK: - Reading

    /// The records kept in memory, oldest first (at most ``capacity``). O(capacity).
    public var records: [TraceRecord] {
        state.withLock { $0.ring.elements }
    }

    /// Records dropped from memory because the ring buffer was full.
    public var droppedCount: Int {
        state.withLock { $0.ring.dropped }
    }

    /// Records made so far (the next record's step).
    public var recordedCount: Int {
        state.withLock { $0.nextStep }
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool {
        state.withLock { $0.closed }
    }

    // MARK: - File

    /// Writes every record made so far to the file. No-op without a file.
    ///
    /// - Throws: ``TraceRecorderError/writeFailed(path:reason:)`` if any write to the
    ///   file has failed (then and on every later call).
    public func flush() throws(TraceRecorderError) {
        try file.withLock { (sink) throws(TraceRecorderError) in
            writePending(&sink)
            if let failure = sink?.failure { throw failure }
        }
    }

    /// Stops recording: writes and closes the file, and finishes every live stream.
    /// Later ``record(_:channel:engine:store:type:seq:message:note:)`` calls are
    /// ignored; ``records`` stays readable. Idempotent.
    ///
    /// - Throws: ``TraceRecorderError/writeFailed(path:reason:)`` if any write failed.
    public func close() throws(TraceRecorderError) {
        let subscribers = state.withLock { s in
            s.closed = true
            let all = Array(s.subscribers.values)
            s.subscribers.removeAll()
            return all
        }
        // Outside the lock: finishing runs onTermination, which takes the lock.
        for continuation in subscribers { continuation.finish() }
        try file.withLock { (sink) throws(TraceRecorderError) in
            writePending(&sink)
            sink?.close()
            if let failure = sink?.failure { throw failure }
        }
    }

    // MARK: - Live

    /// Records made from now on, as they are made, in step order.
    ///
    /// Buffering: `.bufferingNewest(limit)` — if the consumer falls behind by more
    /// than `limit` records, the oldest unread ones are discarded (a gap in `step`
    /// shows it); recording never waits for a consumer. The stream finishes on
    /// ``close()`` or when the recorder is deinitialized; cancelling the consuming
    /// task unsubscribes. Each call makes an independent subscription.
    public func liveRecords(bufferingNewest limit: Int = 1024) -> AsyncStream<TraceRecord> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: TraceRecord.self, bufferingPolicy: .bufferingNewest(max(limit, 1)))
        let id: Int? = state.withLock { s in
            guard !s.closed else { return nil }
            let id = s.nextSubscriberID
            s.nextSubscriberID += 1
            s.subscribers[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { s in _ = s.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Number of live streams currently subscribed.
    public var liveSubscriberCount: Int {
        state.withLock { $0.subscribers.count }
    }
}
