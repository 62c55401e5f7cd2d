#if canImport(Glibc)
    import Foundation
    import Glibc

    /// A TCP server on 127.0.0.1 that reads each request and then fails it one
    /// way: `close` (closes without a word), `reset` (an RST), `cut` (half an
    /// answer, then closes), `silent` (answers nothing for 5 s). For the
    /// transport's classification of real sockets' failures.
    final class MisbehavingServer: Sendable {
        let port: Int
        private let socket: Int32

        init(_ behaviour: String) throws {
            let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(listener, pointer, length) == 0 && listen(listener, 8) == 0
                        && getsockname(listener, pointer, &length) == 0
                }
            }
            guard bound else { throw CocoaError(.fileWriteUnknown) }
            socket = listener
            port = Int(UInt16(bigEndian: address.sin_port))
            let thread = Thread {
                while true {
                    let connection = accept(listener, nil, nil)
                    guard connection >= 0 else { return }
                    var buffer = [UInt8](repeating: 0, count: 65536)
                    _ = read(connection, &buffer, buffer.count)
                    switch behaviour {
                    case "reset":
                        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                        setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                    case "cut":
                        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"elem".utf8)
                        _ = write(connection, head, head.count)
                    case "silent":
                        Thread.sleep(forTimeInterval: 5)
                    default:
                        break
                    }
                    close(connection)
                }
            }
            thread.start()
        }

        /// Stops accepting (the thread's `accept` fails and it ends).
        func stop() {
            shutdown(socket, Int32(SHUT_RDWR))
            close(socket)
        }
    }
#endif
