import Synchronization

/// A value that tests share with the tasks, threads or sinks they watch (a
/// world's tasks, a realtime sink, a reading handler): every access takes
/// its lock.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` with the value, under the lock.
    public func withLock<R: Sendable>(_ body: (inout sending Value) -> sending R) -> R { mutex.withLock(body) }

    /// The value now; setting it replaces it.
    public var value: Value {
        get { mutex.withLock { $0 } }
        set { mutex.withLock { $0 = newValue } }
    }

    /// The value, leaving `empty` in its place.
    public func take(leaving empty: Value) -> Value {
        mutex.withLock { value in
            defer { value = empty }
            return value
        }
    }
}

extension Locked {
    /// Appends to a shared array.
    public func append<Element>(_ element: Element) where Value == [Element] { mutex.withLock { $0.append(element) } }
}

extension Locked where Value == String {
    /// Appends to shared text.
    public func append(_ text: String) { mutex.withLock { $0 += text } }
}
