// The kind tags on this target's suites (`.tags(.unit)` and the rest) are declared once, in
// StateHubTestSupport's Tags.swift; one import anywhere in a target makes them visible in all
// of its files.
import StateHubTestSupport
