#include "kinds/keyglob.h"

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
    return { "lock:*", "mutex:*", "*:lock" };
}

StringLockPatterns::StringLockPatterns(QList<QByteArray> patterns)
{
    for (QByteArray &p : patterns)
        if (!p.isEmpty() && !m_patterns.contains(p))
            m_patterns << std::move(p);
}

bool StringLockPatterns::matches(const QByteArray &key) const
{
    for (const QByteArray &p : m_patterns)
        if (globMatch(p, key))
            return true;
    return false;
}

} // namespace LockScope
