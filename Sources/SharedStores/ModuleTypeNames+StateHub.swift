// See ModuleTypeNames.swift.
import StateHub

typealias StorePathStep = PathStep
