#pragma once

#include <QCoreApplication>
#include <QMetaType>
#include <QString>

namespace LockScope {

// A typed failure. Callers branch on kind(); message() is for people.
class RedisError
{
    Q_DECLARE_TR_FUNCTIONS(RedisError)
public:
    enum class Kind {
        None,
        Io, // connection refused, reset, TLS handshake failure
        Timeout, // connect or command deadline passed
        Reply, // the server answered with an error reply (WRONGTYPE, script errors, ...)
        Protocol, // bytes that are not RESP, or a reply of an unexpected shape
        Auth, // NOAUTH, WRONGPASS, bad credentials
        Permission, // ACL NOPERM
        ReadOnly, // refused in the client: read-only mode
        InvalidArgument, // refused in the client: bad input (empty name, oversized name, ...)
        // A lock write no replica acknowledged in time (Redisson's checkLockSyncedSlaves); an acquire was undone.
        NotSynced,
        KindMismatch, // refused, nothing written: Redis holds another kind of lock (or key) under that name
    };

    RedisError() = default;
    RedisError(Kind kind, QString message, QByteArray code = {}, QByteArray detail = {})
        : m_kind(kind)
        , m_message(std::move(message))
        , m_code(std::move(code))
        , m_detail(std::move(detail))
    { }

    // Maps a server error reply (its text and its code, the text's first word) to a kind by the code.
    static RedisError fromReply(const QByteArray &text, const QByteArray &code);

    bool isError() const { return m_kind != Kind::None; }
    explicit operator bool() const { return isError(); }
    Kind kind() const { return m_kind; }
    QString message() const { return m_message; }
    // A server error reply's code, its first word ("WRONGTYPE", "NOSCRIPT", or a script's own such as
    // "LOCKKIND"): what callers branch on, rather than on the message text. Empty for client-side errors.
    QByteArray code() const { return m_code; }
    // What a front-end needs to act on the error beyond its text: for SSH_HOSTKEY_UNKNOWN and SSH_HOSTKEY_CHANGED,
    // the fingerprint the server offered ("SHA256:...").
    QByteArray detail() const { return m_detail; }
    // A failure that retrying cannot mend: wrong credentials, a host key that is unknown or changed.
    bool isFinal() const;
    // SELECT of a database the server does not have: final, whereas other plain ERR refusals in a handshake pass.
    bool isOutOfRangeDatabase() const;
    // "timeout: connect to 127.0.0.1:7000 took longer than 2000 ms"
    QString toString() const;
    static QString kindName(Kind kind);

private:
    Kind m_kind = Kind::None;
    QString m_message;
    QByteArray m_code;
    QByteArray m_detail;
};

} // namespace LockScope

Q_DECLARE_METATYPE(LockScope::RedisError)
