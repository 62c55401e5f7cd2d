import ChatCore
import Crypto
import Foundation

/// Identity verification (A12): the app's backend vouches for a user id by
/// signing it, and a client that connects with the user id alone passes the
/// signature on (`ChatAuth.signature`). The signature is the HMAC-SHA256 of
/// the user id's UTF-8 bytes in NFC (the one spelling of an id,
/// ``Identifier``), keyed by the app's secret (the one its JWTs are signed
/// with), written as 64 lowercase hex digits.
///
/// A right signature lets a user-id connect through where the app does not
/// allow user ids alone; a wrong one is refused with `invalidSignature`
/// wherever it is given.
package enum UserSignature {
    /// The signature of `userId` under `secret`.
    package static func sign(userId: String, secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(
            for: Data(Identifier.normalized(userId).utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return code.map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `signature` is `userId`'s under `secret` (hex in either case;
    /// compared in constant time by the HMAC).
    package static func isValid(_ signature: String, userId: String, secret: String) -> Bool {
        guard let bytes = hexBytes(signature), bytes.count == SHA256.byteCount else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(
            bytes, authenticating: Data(Identifier.normalized(userId).utf8), using: SymmetricKey(data: Data(secret.utf8)))
    }

    private static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
