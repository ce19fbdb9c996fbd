extension ReleaseSpec {
    /// The first field a release may not hold, as `field: why` for a `400 bad-request`
    /// (docs/server.md, "Release model"); `nil` when every field may be stored. Checked before
    /// ``shapeProblems()``:
    /// - a percentage that is not exactly a whole number of hundredths (the number parsed must
    ///   equal `n / 100` for an integer `n`): buckets are hundredths of a percent, so `10.005` or
    ///   `10.000000001` would silently be one of their neighbours; and `-0`, which is no percentage;
    /// - two arms with one label, or only one of two arms labelled: the manifest's `variant`
    ///   could not tell the arms apart;
    /// - an arm label outside the arm labels' character set (docs/server.md: look-alike letters, spaces, controls);
    /// - a user id with a control or format character (bidirectional controls, zero-width
    ///   characters): stored text would show as another.
    public func refusedField() -> String? {
        for (index, arm) in arms.enumerated() where arm.percent.isFinite {
            if arm.percent == 0, arm.percent.sign == .minus {
                return "arms[\(index)].percent: -0 is not a percentage; write 0"
            }
            if (arm.percent * 100).rounded() / 100 != arm.percent {
                return "arms[\(index)].percent: at most two decimals (buckets are hundredths of a percent), got \(arm.percent)"
            }
        }
        for (index, arm) in arms.enumerated() {
            if let label = arm.label, let refusal = ArmLabel.refusal(label) {
                return "arms[\(index)].label: \(refusal)"
            }
        }
        if arms.count == 2 {
            switch (arms[0].label, arms[1].label) {
            case (let first?, let second?) where first == second:
                return "arms[1].label: the same as arms[0].label (\"\(first.prefix(32))\"); an A/B pair needs two labels"
            case (nil, _?), (_?, nil):
                return "arms[\(arms[0].label == nil ? 0 : 1)].label: missing; an A/B pair labels both arms, a rollout neither"
            default:
                break
            }
        }
        for user in users.keys.sorted() {
            if let character = AdminLabel.refusedCharacter(in: user) {
                return "users: a user id holds the control or format character \(character), which user ids may not hold"
            }
        }
        return nil
    }
}
