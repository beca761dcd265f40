#pragma once

#include <QByteArray>
#include <QList>

namespace LockScope {

// Redis's glob rules (SCAN MATCH, KEYS, PSUBSCRIBE): '*' any run of bytes, '?' one byte, "[abc]", "[^a-z]", and
// '\' to take the next byte literally; bytes, case-sensitive. Keys the server matched are matched here the same way,
// so a key a keyspace event names is a string lock candidate exactly when a SCAN would have found it.
bool globMatch(const QByteArray &pattern, const QByteArray &key);

// The string lock patterns a monitor looks in: a string outside all of them is never a lock.
class StringLockPatterns
{
public:
    static QList<QByteArray> defaults(); // lock:*, mutex:*, *:lock

    StringLockPatterns() = default;
    explicit StringLockPatterns(QList<QByteArray> patterns);
    const QList<QByteArray> &patterns() const { return m_patterns; }
    bool isEmpty() const { return m_patterns.isEmpty(); }
    bool matches(const QByteArray &key) const;

private:
    QList<QByteArray> m_patterns;
};

} // namespace LockScope
