import StateHubJSON

/// Everything seen at one place of a state (or of an action's argument), merged over every
/// observation: which JSON kinds occurred, and below containers, the shapes of their members.
///
/// Values are observed to ``maximumDepth`` levels; anything deeper is ``opaque`` (it becomes
/// `JSONValue`), so a hostile 1,000-level value costs a bounded recursion and gives a
/// type, never a crash. docs/types.md has the rules.
public struct TypeShape: Sendable, Equatable {
    /// How many values were seen here, `null` and absent ones not counted.
    public internal(set) var observations = 0
    public internal(set) var null = false
    public internal(set) var bool = false
    /// A number that was integral (and within ±2^53).
    public internal(set) var integer = false
    /// A number that was not integral, or was `NaN`/`±Infinity`: the place is `Double`.
    public internal(set) var double = false
    public internal(set) var string = false
    public internal(set) var date = false
    public internal(set) var bigInt = false
    /// Something no type here describes (past ``maximumDepth``, an unknown tag): `JSONValue`.
    public internal(set) var opaque = false
    /// Element shape of arrays (one element, or none when no array was seen).
    var arrayElement: [TypeShape] = []
    var arraySeen = false
    /// Member shape of tagged `Set`s.
    var setElement: [TypeShape] = []
    var setSeen = false
    /// Key and value shapes of tagged `Map`s.
    var mapKey: [TypeShape] = []
    var mapValue: [TypeShape] = []
    var mapSeen = false
    /// Objects seen here: how many, and each key's shape (`observations` = how many had it).
    var objectCount = 0
    var fields: [String: TypeShape] = [:]

    public init() {}

    /// How deep values are followed: 48 levels (a store's state is at most 512 deep).
    public static let maximumDepth = 48

    /// Merges `value` into the shape.
    public mutating func observe(_ value: JSONValue) {
        observe(value, depth: 0)
    }

    mutating func observe(_ value: JSONValue, depth: Int) {
        if depth > Self.maximumDepth {
            observations += 1
            opaque = true
            return
        }
        switch value {
        case .null:
            null = true
        case .bool:
            observations += 1
            bool = true
        case .number(let n):
            observations += 1
            if n.rounded() == n, abs(n) <= 9_007_199_254_740_992 { integer = true } else { double = true }
        case .string:
            observations += 1
            string = true
        case .array(let elements):
            observations += 1
            arraySeen = true
            var element = arrayElement.first ?? TypeShape()
            for item in elements { element.observe(item, depth: depth + 1) }
            arrayElement = [element]
        case .object(let members):
            if case .string(let tag)? = members["$type"] {
                observeTagged(tag, members, depth: depth)
                return
            }
            observations += 1
            observeObject(members, depth: depth)
        }
    }

    private mutating func observeTagged(_ tag: String, _ members: JSONValue.ObjectMembers, depth: Int) {
        switch tag {
        case "undefined":
            null = true
        case "Date":
            observations += 1
            date = true
        case "BigInt":
            observations += 1
            bigInt = true
        case "Number":
            observations += 1
            double = true
        case "Set":
            observations += 1
            setSeen = true
            var element = setElement.first ?? TypeShape()
            for item in members["values"]?.arrayValue ?? [] { element.observe(item, depth: depth + 1) }
            setElement = [element]
        case "Map":
            observations += 1
            mapSeen = true
            var key = mapKey.first ?? TypeShape()
            var value = mapValue.first ?? TypeShape()
            for entry in members["entries"]?.arrayValue ?? [] {
                guard case .array(let pair) = entry, pair.count == 2 else { opaque = true; continue }
                key.observe(pair[0], depth: depth + 1)
                value.observe(pair[1], depth: depth + 1)
            }
            mapKey = [key]
            mapValue = [value]
        case "Object":
            observations += 1
            guard case .object(let inner)? = members["value"] else { opaque = true; return }
            observeObject(inner, depth: depth)
        default:
            observations += 1
            opaque = true
        }
    }

    private mutating func observeObject(_ members: JSONValue.ObjectMembers, depth: Int) {
        objectCount += 1
        for (key, value) in members {
            var field = fields[key.string] ?? TypeShape()
            // `undefined` as a member is an absent key (PROTOCOL.md A.3).
            if case .object(let inner) = value, inner.count == 1, inner["$type"] == .string("undefined") {
                field.null = true
                field.present += 1
                fields[key.string] = field
                continue
            }
            field.observe(value, depth: depth + 1)
            field.present += 1
            fields[key.string] = field
        }
    }

    /// As a member of an object: how many of that object's observations had this key.
    var present = 0

    /// Merges another shape of the same place.
    public mutating func merge(_ other: TypeShape) {
        observations += other.observations
        present += other.present
        null = null || other.null
        bool = bool || other.bool
        integer = integer || other.integer
        double = double || other.double
        string = string || other.string
        date = date || other.date
        bigInt = bigInt || other.bigInt
        opaque = opaque || other.opaque
        arraySeen = arraySeen || other.arraySeen
        setSeen = setSeen || other.setSeen
        mapSeen = mapSeen || other.mapSeen
        Self.mergeBox(&arrayElement, other.arrayElement)
        Self.mergeBox(&setElement, other.setElement)
        Self.mergeBox(&mapKey, other.mapKey)
        Self.mergeBox(&mapValue, other.mapValue)
        objectCount += other.objectCount
        for (key, field) in other.fields {
            if var mine = fields[key] {
                mine.merge(field)
                fields[key] = mine
            } else {
                fields[key] = field
            }
        }
    }

    private static func mergeBox(_ box: inout [TypeShape], _ other: [TypeShape]) {
        guard let theirs = other.first else { return }
        guard var mine = box.first else { box = other; return }
        mine.merge(theirs)
        box = [mine]
    }

    /// The JSON kinds seen here, `null` aside (a number is one kind, Int or Double).
    var kinds: [Kind] {
        var out: [Kind] = []
        if bool { out.append(.bool) }
        if integer || double { out.append(double ? .double : .int) }
        if string { out.append(.string) }
        if date { out.append(.date) }
        if bigInt { out.append(.bigInt) }
        if arraySeen { out.append(.array) }
        if setSeen { out.append(.set) }
        if mapSeen { out.append(.map) }
        if objectCount > 0 { out.append(.object) }
        return out
    }

    enum Kind: String {
        case bool, int, double, string, date, bigInt, array, set, map, object
    }
}
