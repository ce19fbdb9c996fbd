import ArgumentParser
import JSEngine
import Synchronization

/// `run`'s `--dispatch` values, gathered before ArgumentParser reads the command line.
///
/// swift-argument-parser (1.8) spends time quadratic in the number of values of a repeated
/// option (2,000 `--dispatch` took 15–20 s in a debug build, before the run and its
/// `--wall-limit` began). ``gather(_:)`` takes every `--dispatch` and the values after it
/// out of the command line in one pass and hands them to `run` as a single hidden option,
/// `--dispatch-list`, holding a JSON array of the values in order: ArgumentParser then sees
/// one option with one value, however many dispatches there are, and `run` pairs the values
/// exactly as it paired those the parser collected (``PlannedDispatch/parse(_:)``).
enum DispatchArguments {
    static let listOption = "--dispatch-list"
    static let dispatchOption = "--dispatch"

    /// `arguments` (without the program name) with every `--dispatch` occurrence of a `run`
    /// command line replaced by one `--dispatch-list JSON` where the first one stood. A value
    /// is what ArgumentParser takes as one: an argument that does not start with `-`, or `-`
    /// itself; `--` ends the options, and what follows is left as it is. Other commands'
    /// arguments are returned unchanged. O(total length of the arguments).
    static func gather(_ arguments: [String]) -> [String] {
        if arguments.first == "run" {
            let typed = arguments.prefix(while: { $0 != "--" }).contains { $0 == listOption || $0.hasPrefix(listOption + "=") }
            typedByUser.withLock { $0 = typed }
        }
        guard arguments.first == "run", arguments.contains(where: { $0 == dispatchOption || $0.hasPrefix(dispatchOption + "=") }) else {
            return arguments
        }
        var kept: [String] = []
        kept.reserveCapacity(arguments.count)
        var values: [JSONValue] = []
        var listPosition: Int?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                kept.append(contentsOf: arguments[(index - 1)...])
                break
            }
            guard argument == dispatchOption || argument.hasPrefix(dispatchOption + "=") else {
                kept.append(argument)
                continue
            }
            if listPosition == nil { listPosition = kept.count }
            let before = values.count
            if argument != dispatchOption { values.append(.string(String(argument.dropFirst(dispatchOption.count + 1)))) }
            while index < arguments.count, isValue(arguments[index]) {
                values.append(.string(arguments[index]))
                index += 1
            }
            // `--dispatch` with no value: left for ArgumentParser to refuse with its own message.
            if values.count == before { return arguments }
        }
        guard let listPosition else { return arguments }
        kept.insert(contentsOf: [listOption, JSONValue.array(values).jsonText()], at: listPosition)
        return kept
    }

    /// Whether the command line ``gather(_:)`` read had a `--dispatch-list` of its own: only
    /// the gatherer may write one (a typed one would be merged with, or dropped for, the
    /// gathered `--dispatch` values), so `run` refuses it.
    private static let typedByUser = Mutex(false)

    /// The values ``gather(_:)`` put in `--dispatch-list`, in order; refuses one a user typed.
    static func values(of list: String?) throws(CLIError) -> [String] {
        if typedByUser.withLock({ $0 }) {
            throw .badArgument("\(listOption) is written by statehub itself from --dispatch; give each dispatch as --dispatch STORE.ACTION [ARGS_JSON] (or --dispatch 'STORE.ACTION(ARGS)')")
        }
        guard let list else { return [] }
        guard case .array(let items)? = try? JSONValue(parsing: list) else {
            throw .badArgument("\(listOption) must be a JSON array of strings (it is written by statehub itself from --dispatch)")
        }
        return try items.map { item throws(CLIError) in
            guard let text = item.stringValue else {
                throw .badArgument("\(listOption) must be a JSON array of strings (it is written by statehub itself from --dispatch)")
            }
            return text
        }
    }

    /// Whether ArgumentParser reads `argument` as a value (not an option or `--`).
    static func isValue(_ argument: String) -> Bool {
        !argument.hasPrefix("-") || argument == "-"
    }
}
