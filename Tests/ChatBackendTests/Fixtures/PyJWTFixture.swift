/// JWTs made outside Swift, by PyJWT 2.15.1 (a standard JWT library), with
/// the embedded world's demo secret. Regenerate with:
///
/// ```sh
/// pip install pyjwt==2.15.1
/// python3 -c "
/// import jwt
/// s = 'demo-secret-0123456789abcdef'
/// print(jwt.encode({'external_id': 'pyjwt-user', 'name': 'Py Jwt', 'email': 'py@example.com',
///                   'iat': 1767225600, 'exp': 4102444800}, s, algorithm='HS256'))
/// print(jwt.encode({'external_id': 'pyjwt-user', 'exp': 1767225600 - 60}, s, algorithm='HS256'))
/// "
/// ```
enum PyJWTFixture {
    static let secret = "demo-secret-0123456789abcdef"
    /// external_id "pyjwt-user", name "Py Jwt", email "py@example.com",
    /// iat 2026-01-01T00:00:00Z, exp 2100-01-01T00:00:00Z.
    static let valid =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJleHRlcm5hbF9pZCI6InB5and0LXVzZXIiLCJuYW1lIjoiUHkgSnd0IiwiZW1haWwiOiJweUBleGFtcGxlLmNvbSIsImlhdCI6MTc2NzIyNTYwMCwiZXhwIjo0MTAyNDQ0ODAwfQ.5wdDiX2Ao4dKKu7k4Oy4FRs5m_7DF2Hpg-rZEBAN1x0"
    /// external_id "pyjwt-user", exp one minute before the simulation epoch.
    static let expired =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJleHRlcm5hbF9pZCI6InB5and0LXVzZXIiLCJleHAiOjE3NjcyMjU1NDB9.ApmufpBeT5ZttdqHimGjdqya6QU1L8QPCWigCZ_Oy8I"
}
