/// libFuzzer's driver, declared in its `FuzzerInterface.h`:
/// `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));`
///
/// SwiftPM links an executable target with `--defsym main=<Target>_main`, so libFuzzer's own
/// `main` is never used: each target exports `<Target>_main` (see ``fuzzMain(argc:argv:_:)``)
/// and hands its input function to the driver. The arguments are pointers and integers only,
/// which the Swift and C calling conventions pass alike.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The body of a fuzz target's `main`: runs libFuzzer with the process arguments (corpus
/// folders, `-max_total_time=…`) over `body`, which gets one input at a time.
public func fuzzMain(
    argc: CInt,
    argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, body)
}

/// The input as a buffer (libFuzzer may pass a null pointer with a count of zero).
public func fuzzInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: count > 0 ? start : nil, count: count > 0 ? count : 0)
}
