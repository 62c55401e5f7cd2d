import Foundation

/// A value behind a lock: the package's own small lock, in place of
/// `Synchronization.Mutex` (iOS 18 / macOS 15) in what an app embeds, so that
/// the SDK asks nothing newer of the system than `NSLock` does.
///
/// Its `withLock` has `Mutex`'s shape (the value `inout sending`, the result
/// `sending`), so a call site reads the same; it rethrows rather than
/// throwing a typed error, since typed-throws function types need the
/// Swift 6 runtime (iOS 18 / macOS 15):
///
/// ```swift
/// let count = LockedValue(0)
/// let next = count.withLock { value in
///     value += 1
///     return value
/// }
/// ```
///
/// `@unchecked Sendable` is safe because the value is read and written only
/// inside `withLock`, which holds the lock for the whole of `body`; like
/// `Mutex`, the value goes in and out `sending`, so no reference to it
/// escapes into another isolation region.
package final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    package init(_ value: sending Value) { self.value = value }

    /// Runs `body` with the value, holding the lock until `body` returns or
    /// throws. Not reentrant: `body` must not call `withLock` on the same
    /// lock.
    package func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
