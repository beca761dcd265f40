#include "kinds/keyglob.h"

#include "kinds/custom/ownertemplate.h"

#include "kinds/locklibraries.h"
#include "kinds/string/stringlibrary.h"

#include <algorithm>

namespace LockScope {

namespace {
// At p, a "[...]" class (p just past '['): whether c is in it, and where the pattern continues after it.
bool classMatch(const char *&p, const char *end, char c)
{
    bool negate = false;
    if (p < end && *p == '^') {
        negate = true;
        ++p;
    }
    bool hit = false;
    while (p < end && *p != ']') {
        if (*p == '\\' && p + 1 < end) {
            ++p;
            hit = hit || *p == c;
            ++p;
        } else if (p + 2 < end && p[1] == '-' && p[2] != ']') {
            char lo = p[0], hi = p[2];
            if (lo > hi)
                std::swap(lo, hi); // Redis accepts a reversed range
            hit = hit || (c >= lo && c <= hi);
            p += 3;
        } else {
            hit = hit || *p == c;
            ++p;
        }
    }
    if (p < end)
        ++p; // the ']'; an unclosed class ends with the pattern, as in Redis
    return hit != negate;
}
} // namespace

QByteArray globEscape(const QByteArray &name)
{
    QByteArray glob;
    glob.reserve(name.size());
    for (const char c : name) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
            glob.append('\\');
        glob.append(c);
    }
    return glob;
}

bool globMatch(const QByteArray &pattern, const QByteArray &key)
{
    const char *p = pattern.constData(), *pend = p + pattern.size();
    const char *k = key.constData(), *kend = k + key.size();
    // The last '*' seen and the key position it was tried at: on a mismatch it takes one more byte. One star to
    // return to is enough, since a later star can match whatever an earlier one would have.
    const char *starP = nullptr, *starK = nullptr;
    while (k < kend) {
        if (p < pend) {
            if (*p == '*') {
                while (p < pend && *p == '*')
                    ++p;
                if (p == pend)
                    return true;
                starP = p;
                starK = k;
                continue;
            }
            const char *next = p;
            bool ok;
            if (*next == '?') {
                ok = true;
                ++next;
            } else if (*next == '[') {
                ++next;
                ok = classMatch(next, pend, *k);
            } else {
                if (*next == '\\' && next + 1 < pend)
                    ++next;
                ok = *next == *k;
                ++next;
            }
            if (ok) {
                p = next;
                ++k;
                continue;
            }
        }
        if (!starP)
            return false;
        p = starP;
        k = ++starK;
    }
    while (p < pend && *p == '*')
        ++p;
    return p == pend;
}

QList<QByteArray> StringLockPatterns::defaults()
{
    QList<QByteArray> globs { "lock:*", "mutex:*", "*:lock" };
    for (const QByteArray &glob : StringLibraries::defaultPatterns())
        if (!globs.contains(glob))
            globs << glob;
    return globs;
}

StringLockPatterns::StringLockPatterns(QList<QByteArray> patterns)
{
    for (QByteArray &p : patterns)
        if (!p.isEmpty() && !m_patterns.contains(p))
            m_patterns << std::move(p);
}

StringLockPatterns StringLockPatterns::fromEntries(const QList<QByteArray> &entries)
{
    StringLockPatterns out;
    for (const QByteArray &entry : entries) {
        QByteArray library, glob;
        if (parseDeclaration(entry, &library, &glob))
            out.declare(library, glob);
        else if (!entry.isEmpty() && !out.m_patterns.contains(entry))
            out.m_patterns << entry;
    }
    return out;
}

bool StringLockPatterns::parseDeclaration(const QByteArray &entry, QByteArray *library, QByteArray *glob)
{
    const int eq = entry.indexOf('=');
    if (eq <= 0 || eq == entry.size() - 1)
        return false;
    // Any library of the one registry but the generic "string", which names no library.
    if (!LockLibraries::isDeclarable(entry.left(eq)))
        return false;
    *library = entry.left(eq);
    *glob = entry.mid(eq + 1);
    return true;
}

void StringLockPatterns::declare(const QByteArray &library, const QByteArray &glob)
{
    if (!glob.isEmpty() && !m_declared.contains({ library, glob }))
        m_declared.append({ library, glob });
}

QList<QByteArray> StringLockPatterns::scanGlobs() const
{
    QList<QByteArray> globs = m_patterns;
    for (const auto &[library, glob] : m_declared)
        if (!globs.contains(glob))
            globs << glob;
    return globs;
}

bool StringLockPatterns::matches(const QByteArray &key) const
{
    for (const QByteArray &p : m_patterns)
        if (globMatch(p, key))
            return true;
    return !declaredLibrary(key).isEmpty();
}

QByteArray StringLockPatterns::declaredLibrary(const QByteArray &key, QByteArray *glob) const
{
    for (const auto &[library, pattern] : m_declared) {
        if (globMatch(pattern, key)) {
            if (glob)
                *glob = pattern;
            return library;
        }
    }
    return {};
}

void StringLockPatterns::addTemplate(const OwnerTemplate &ownerTemplate)
{
    declare("custom", ownerTemplate.glob);
    m_templates.append(std::make_shared<const OwnerTemplate>(ownerTemplate));
}

std::shared_ptr<const OwnerTemplate> StringLockPatterns::templateFor(const QByteArray &key) const
{
    for (const auto &t : m_templates)
        if (globMatch(t->glob, key))
            return t;
    return {};
}

} // namespace LockScope
