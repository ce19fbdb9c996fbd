// Local edits of arrays and text, with Yjs 13.5's search markers (`findMarker`,
// `updateMarkerChanges`, `typeListInsertGenerics`, `typeListDelete`, `findPosition`):
// the markers decide which neighbour an insert takes as origin, so the same edits give
// the same bytes as Yjs.

extension SharedDocument {
    static let maximumSearchMarkers = 80

    func nextMarkerTimestamp() -> Int {
        markerClock += 1
        return markerClock
    }

    func markPosition(_ type: SharedType, item: Item, index: Int) -> Int {
        if type.markers?.count ?? 0 >= Self.maximumSearchMarkers, let markers = type.markers {
            var oldest = 0
            for position in markers.indices where markers[position].timestamp < markers[oldest].timestamp { oldest = position }
            overwriteMarker(type, oldest, item: item, index: index)
            return oldest
        }
        item.marker = true
        type.markers?.append(SearchMarker(item: item, index: index, timestamp: nextMarkerTimestamp()))
        return (type.markers?.count ?? 1) - 1
    }

    func overwriteMarker(_ type: SharedType, _ position: Int, item: Item, index: Int) {
        guard var markers = type.markers else { return }
        type.markers = nil // keep the array uniquely referenced while it changes
        markers[position].item.marker = false
        markers[position].item = item
        item.marker = true
        markers[position].index = index
        markers[position].timestamp = nextMarkerTimestamp()
        type.markers = markers
    }

    /// Yjs's `findMarker`: a marker at or near `index`, as (item, index).
    func findMarker(_ type: SharedType, _ index: Int) -> (item: Item, index: Int)? {
        guard var node = type.start, index != 0, let markers = type.markers else { return nil }
        var markerPosition: Int?
        if !markers.isEmpty {
            var best = 0
            // As JavaScript's `reduce((a, b) => |a| < |b| ? a : b)`: on a tie the later marker wins.
            for position in 1..<markers.count where !(abs(index - markers[best].index) < abs(index - markers[position].index)) { best = position }
            markerPosition = best
        }
        var nodeIndex = 0
        if let markerPosition {
            node = markers[markerPosition].item
            nodeIndex = markers[markerPosition].index
            type.markers?[markerPosition].timestamp = nextMarkerTimestamp()
        }
        while let right = node.right, nodeIndex < index {
            if node.visibleCountable {
                if index < nodeIndex + node.length { break }
                nodeIndex += node.length
            }
            node = right
        }
        while let left = node.left, nodeIndex > index {
            node = left
            if node.visibleCountable { nodeIndex -= node.length }
        }
        while let left = node.left, left.id.client == node.id.client, left.id.clock + left.length == node.id.clock {
            node = left
            if node.visibleCountable { nodeIndex -= node.length }
        }
        if let markerPosition, let markers = type.markers, Double(abs(markers[markerPosition].index - nodeIndex)) < Double(node.parent?.length ?? type.length) / Double(Self.maximumSearchMarkers) {
            overwriteMarker(type, markerPosition, item: node, index: nodeIndex)
            return (node, nodeIndex)
        }
        _ = markPosition(type, item: node, index: nodeIndex)
        return (node, nodeIndex)
    }

    /// Yjs's `updateMarkerChanges` after `length` elements were inserted (or removed, < 0) at `index`.
    func updateMarkers(_ type: SharedType, index: Int, length: Int) {
        guard var markers = type.markers, !markers.isEmpty else { return }
        type.markers = nil // keep the array uniquely referenced while it changes
        var position = markers.count - 1
        while position >= 0 {
            if length > 0 {
                // unowned(unsafe): walking the list must not retain and release each item.
                unowned(unsafe) var node: Item? = markers[position].item
                node?.marker = false
                var markerIndex = markers[position].index
                while let current = node, current.deleted || !current.countable {
                    node = current.left
                    if let left = node, left.visibleCountable { markerIndex -= left.length }
                }
                guard let found = node, !found.marker else {
                    markers.remove(at: position)
                    position -= 1
                    continue
                }
                markers[position].item = found
                markers[position].index = markerIndex
                found.marker = true
            }
            let markerIndex = markers[position].index
            if index < markerIndex || (length > 0 && index == markerIndex) {
                markers[position].index = max(index, markerIndex + length)
            }
            position -= 1
        }
        type.markers = markers
    }

    /// New local item after `left`, before `right`, integrated at once.
    @discardableResult
    func insertItem(_ content: ItemContent, parent: SharedType, left: Item?, right: Item?, parentSub: String? = nil, _ transaction: Transaction) -> Item {
        let item = Item(id: ID(client: clientID, clock: store.state(of: clientID)), length: content.length,
                        origin: left?.lastID, rightOrigin: right?.id, parent: parent, parentID: nil, parentSub: parentSub, content: content)
        item.left = left
        item.right = right
        integrate(item, offset: 0, transaction)
        return item
    }

    /// Yjs's `typeListInsertGenericsAfter`: JSON-like values grouped into one Any item;
    /// bytes, new types and sub-documents each get an item.
    func insertContents(_ contents: [ListContent], parent: SharedType, after reference: Item?, _ transaction: Transaction) {
        var left = reference
        let right = reference == nil ? parent.start : reference?.right
        var values: [YValue] = []
        func flush() {
            guard !values.isEmpty else { return }
            left = insertItem(.any(AnyValues(values)), parent: parent, left: left, right: right, transaction)
            values = []
        }
        for content in contents {
            switch content {
            case .value(.bytes(let data)):
                flush()
                left = insertItem(.binary(data), parent: parent, left: left, right: right, transaction)
            case .value(let value):
                values.append(value)
            case .type(let type):
                flush()
                left = insertItem(.type(type), parent: parent, left: left, right: right, transaction)
            case .subdocument(let reference):
                flush()
                left = insertItem(.doc(reference), parent: parent, left: left, right: right, transaction)
            }
        }
        flush()
    }

    func checkAlive(_ type: SharedType) throws(SharedDocumentError) {
        if let item = type.item, item.deleted { throw SharedDocumentError(.typeDeleted) }
    }

    /// Yjs's `typeListInsertGenerics`.
    func listInsert(_ type: SharedType, at index: Int, _ contents: [ListContent]) throws(SharedDocumentError) {
        try checkAlive(type)
        guard index >= 0, index <= type.length else { throw SharedDocumentError(.indexOutOfRange(index: index, length: type.length)) }
        let count = contents.count
        transact { transaction in
            if index == 0 {
                updateMarkers(type, index: 0, length: count)
                insertContents(contents, parent: type, after: nil, transaction)
                return
            }
            var remaining = index
            var node = type.start
            if let marker = findMarker(type, index) {
                node = marker.item
                remaining -= marker.index
                if remaining == 0 {
                    node = node?.prev
                    if let previous = node, previous.visibleCountable { remaining += previous.length }
                }
            }
            while let current = node {
                if current.visibleCountable {
                    if remaining <= current.length {
                        if remaining < current.length { itemCleanStart(ID(client: current.id.client, clock: current.id.clock + remaining), transaction) }
                        break
                    }
                    remaining -= current.length
                }
                node = current.right
            }
            updateMarkers(type, index: index, length: count)
            insertContents(contents, parent: type, after: node, transaction)
        }
    }

    /// Yjs's `typeListPushGenerics`: after the last item, found from the furthest marker.
    func listPush(_ type: SharedType, _ contents: [ListContent]) throws(SharedDocumentError) {
        try checkAlive(type)
        transact { transaction in
            var node = type.start
            var best = 0
            for marker in type.markers ?? [] where marker.index > best {
                best = marker.index
                node = marker.item
            }
            if var last = node {
                while let next = last.right { last = next }
                node = last
            }
            insertContents(contents, parent: type, after: node, transaction)
        }
    }

    /// Yjs's `typeListDelete`.
    func listDelete(_ type: SharedType, at index: Int, count: Int) throws(SharedDocumentError) {
        try checkAlive(type)
        guard count > 0 else { return }
        guard index >= 0, index + count <= type.length else { throw SharedDocumentError(.indexOutOfRange(index: index + count, length: type.length)) }
        transact { transaction in
            var remaining = index
            var node = type.start
            if let marker = findMarker(type, index) {
                node = marker.item
                remaining -= marker.index
            }
            while let current = node, remaining > 0 {
                if current.visibleCountable {
                    if remaining < current.length { itemCleanStart(ID(client: current.id.client, clock: current.id.clock + remaining), transaction) }
                    remaining -= current.length
                }
                node = current.right
            }
            var left = count
            while left > 0, let current = node {
                if !current.deleted {
                    if left < current.length { itemCleanStart(ID(client: current.id.client, clock: current.id.clock + left), transaction) }
                    delete(current, transaction)
                    left -= current.length
                }
                node = current.right
            }
            updateMarkers(type, index: index, length: -count + left)
        }
    }

    /// Yjs's `findPosition` + `findNextPosition` for text: (left, right, index).
    func textPosition(_ type: SharedType, _ index: Int, _ transaction: Transaction) -> (left: Item?, right: Item?, index: Int) {
        var left: Item?
        var right: Item?
        var position = 0
        var count = index
        if let marker = findMarker(type, index) {
            left = marker.item.left
            right = marker.item
            position = marker.index
            count = index - marker.index
        } else {
            right = type.start
        }
        while let current = right, count > 0 {
            if case .format = current.content {
                // Formatting attributes are tracked by Yjs here; local formatting is not supported.
            } else if !current.deleted {
                if count < current.length { itemCleanStart(ID(client: current.id.client, clock: current.id.clock + count), transaction) }
                position += current.length
                count -= current.length
            }
            left = current
            right = current.right
        }
        return (left, right, position)
    }

    /// Yjs's `YText.insert` without attributes (the current attributes continue).
    func textInsert(_ type: SharedType, at index: Int, _ units: TextUnits) throws(SharedDocumentError) {
        try checkAlive(type)
        guard index >= 0, index <= type.length else { throw SharedDocumentError(.indexOutOfRange(index: index, length: type.length)) }
        guard !units.isEmpty else { return }
        transact { transaction in
            var (left, right, position) = textPosition(type, index, transaction)
            // minimizeAttributeChanges: step over deleted items (and formats equal to the current ones).
            while let current = right, current.deleted {
                left = current
                right = current.right
            }
            updateMarkers(type, index: position, length: units.count)
            insertItem(.string(units), parent: type, left: left, right: right, transaction)
        }
    }

    /// Yjs's `YText.delete` (`deleteText`).
    func textDelete(_ type: SharedType, at index: Int, count: Int) throws(SharedDocumentError) {
        try checkAlive(type)
        guard count > 0 else { return }
        guard index >= 0, index + count <= type.length else { throw SharedDocumentError(.indexOutOfRange(index: index + count, length: type.length)) }
        transact { transaction in
            var (_, right, position) = textPosition(type, index, transaction)
            var remaining = count
            while remaining > 0, let current = right {
                if !current.deleted {
                    switch current.content {
                    case .type, .embed, .string:
                        if remaining < current.length { itemCleanStart(ID(client: current.id.client, clock: current.id.clock + remaining), transaction) }
                        remaining -= current.length
                        delete(current, transaction)
                    default:
                        break
                    }
                }
                if !current.deleted, case .format = current.content {} else if !current.deleted { position += current.length }
                right = current.right
            }
            updateMarkers(type, index: position, length: -count + remaining)
        }
    }
}

/// One element given to an array insert: a value, a new shared type, or a sub-document.
enum ListContent {
    case value(YValue)
    case type(SharedType)
    case subdocument(SubDocumentReference)
}
