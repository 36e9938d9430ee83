import Foundation

/// Time limits of tests that tell linear work from quadratic. Under AddressSanitizer (`swift test
/// --sanitize=address`, the second pass of .ci/run) everything runs two to three times slower, so a limit is
/// four times as long there: still far below what the quadratic code took.
enum TimeLimit {
    /// True when this process carries AddressSanitizer's runtime (linked into the test binary, with its
    /// entry points exported).
    static let underAddressSanitizer = dlsym(dlopen(nil, RTLD_NOW), "__asan_init") != nil

    static func scaled(_ limit: Duration) -> Duration {
        underAddressSanitizer ? limit * 4 : limit
    }
}
