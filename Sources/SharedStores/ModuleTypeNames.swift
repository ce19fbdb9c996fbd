// SharedDocument and StateHubJSON (re-exported by StateHub) each have a `PathStep`, and the module `SharedDocument` has a
// class of the same name, so `SharedDocument.PathStep` cannot name the module's type. Each
// alias is declared in a file that imports one of the two modules only.
import SharedDocument

typealias DocumentPathStep = PathStep
