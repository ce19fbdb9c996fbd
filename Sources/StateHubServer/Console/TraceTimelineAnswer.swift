import Foundation
import Hummingbird
import NIOCore
import StateHubJSON
import Trace

/// The answer of `POST /admin/console/trace-timeline` (docs/console.md, "Traces screen"): an NDJSON
/// trace, as `--trace` and `TraceRecorder` write it, read as the timeline `statehub trace view`
/// shows. `{"records", "steps", "cutLine"?}`: `steps` is TimelineModel's, one object per record in
/// the shape `statehub trace show --json` prints; `cutLine` names a last line cut mid-record (a
/// killed recorder), which is left out as the CLI leaves it out.
///
/// A line that is not a record is `422 invalid-trace` naming the line, so the console can say
/// which line is wrong instead of showing nothing. Nothing is stored.
struct TraceTimelineAnswer {
    let json: JSONValue

    /// - Parameter maxTraceBytes: the server's cap on traces, which the timeline's bounds
    ///   are in proportion to (`TimelineModel.Limits(traceBytes:)`).
    /// - Throws: `ServerError` 422 `invalid-trace` for a line that is not a record, 422
    ///   `timeline-too-large` for a trace whose timeline would pass a bound.
    init(ndjson: Data, maxTraceBytes: Int) throws(ServerError) {
        let recovered: TraceFile.Recovered
        do {
            // The body is capped already; no line can be longer than it.
            recovered = try TraceFile.decodeRecovering(ndjson, maximumLineBytes: max(1, ndjson.count))
        } catch {
            switch error {
            case .invalidLine(let line, let reason):
                throw ServerError(.unprocessableContent, "invalid-trace", "line \(line) of the trace \(reason)")
            case .lineTooLong(let line, let limit):
                throw ServerError(.unprocessableContent, "invalid-trace", "line \(line) of the trace is longer than \(limit) bytes")
            case .unreadable, .unwritable:
                throw ServerError(.unprocessableContent, "invalid-trace", "the trace could not be read")
            }
        }
        var object = JSONValue.ObjectMembers()
        object["records"] = .number(Double(recovered.records.count))
        let model: TimelineModel
        do {
            model = try TimelineModel(records: recovered.records, limits: .init(traceBytes: maxTraceBytes))
        } catch {
            throw ServerError(.unprocessableContent, "timeline-too-large", "\(error)")
        }
        object["steps"] = .array(model.steps.map(\.json))
        if let cut = recovered.cutLine { object["cutLine"] = .number(Double(cut)) }
        json = .object(object)
    }

    var response: Response {
        Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: json.jsonText())))
    }
}
