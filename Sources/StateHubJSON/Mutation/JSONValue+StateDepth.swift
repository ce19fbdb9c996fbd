extension JSONValue {
    /// How deep a store's state may nest, in *state levels* (docs/PROTOCOL.md A.8.1): the
    /// arrays and objects on the longest chain of the encoded state (tagged values as
    /// encoded), which is also the most op-path steps from the root to a container, plus one.
    /// The plugin and the hub count the same way; the hub refuses what would go deeper, so
    /// nothing that walks a mirror recursively (equality, untagging, printing, replay) can be
    /// driven off the stack.
    public static let maximumStateDepth = 512

    /// Raw JSON levels a web → native message may nest (as `JSONParsingOptions.maximumDepth`
    /// counts them), derived from ``maximumStateDepth`` so that every message whose state is
    /// within the cap parses: the parser counts the innermost scalar as a level too (+1), and
    /// an `apply_mutation` puts an operation's value below six envelope containers (message,
    /// `payload`, `mutations`, one mutation, `ops`, one op). A `set` at path length n with a
    /// value of depth d reaches state depth n + d ≤ cap, so its deepest scalar sits at level
    /// 7 + d ≤ cap + 7; a splice's item (one level below its array) and the `sync_state` /
    /// `action_result` bodies (two or three containers down) stay under the same bound.
    public static let maximumMessageNesting = maximumStateDepth + envelopeNesting + 1

    /// Containers above an operation's value in an `apply_mutation` (the deepest envelope).
    package static let envelopeNesting = 6
}
