#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>

#include <memory>

namespace LockScope {

struct OwnerTemplate;

// Redis's glob rules (SCAN MATCH, KEYS, PSUBSCRIBE): '*' any run of bytes, '?' one byte, "[abc]", "[^a-z]", and
// '\' to take the next byte literally; bytes, case-sensitive. Keys the server matched are matched here the same way,
// so a key a keyspace event names is a string lock candidate exactly when a SCAN would have found it.
bool globMatch(const QByteArray &pattern, const QByteArray &key);
// The glob that matches exactly this name: every byte the rules above give a meaning to, taken literally.
QByteArray globEscape(const QByteArray &name);

// The string lock patterns a monitor looks in: a string outside all of them is never a lock. Two sorts: the configured
// list (the profile's field, --string-locks), where any library's token shape may be recognised, and the names the
// user declared as one library's (--layout-pattern LIBRARY=GLOB), which that library claims first.
class StringLockPatterns
{
public:
    // lock:*, mutex:*, *:lock, then each string lock library's fixed prefixes (job-lock:*, redlock:*, ...).
    static QList<QByteArray> defaults();

    StringLockPatterns() = default;
    explicit StringLockPatterns(QList<QByteArray> patterns);
    // A profile's list, where "LIBRARY=GLOB" declares names as a library's and anything else is a pattern.
    static StringLockPatterns fromEntries(const QList<QByteArray> &entries);
    // "LIBRARY=GLOB" with any library of the registry but the generic "string" (kinds/locklibraries.h): a string lock
    // library, redisson (its semaphores and latches), a sorted-set or hash layout's library; false for anything else.
    static bool parseDeclaration(const QByteArray &entry, QByteArray *library, QByteArray *glob);
    const QList<QByteArray> &patterns() const { return m_patterns; }
    // Names that belong to library: scanned as string lock names too, and classified as that library's.
    void declare(const QByteArray &library, const QByteArray &glob);
    const QList<QPair<QByteArray, QByteArray>> &declared() const { return m_declared; }
    // Every glob to scan: the configured ones, then the declared ones, each once.
    QList<QByteArray> scanGlobs() const;
    bool isEmpty() const { return m_patterns.isEmpty() && m_declared.isEmpty(); }
    bool matches(const QByteArray &key) const;
    // The library the user declared key's name as (empty: none), and the glob that said so.
    QByteArray declaredLibrary(const QByteArray &key, QByteArray *glob = nullptr) const;
    // An owner template declares its glob as a home-grown lock's ("custom"), read as the template says.
    void addTemplate(const OwnerTemplate &ownerTemplate);
    std::shared_ptr<const OwnerTemplate> templateFor(const QByteArray &key) const;
    const QList<std::shared_ptr<const OwnerTemplate>> &templates() const { return m_templates; }

private:
    QList<QByteArray> m_patterns;
    QList<QPair<QByteArray, QByteArray>> m_declared; // library, glob
    QList<std::shared_ptr<const OwnerTemplate>> m_templates;
};

} // namespace LockScope
