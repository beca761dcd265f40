#pragma once

#include <QByteArray>

#include <vector>

namespace LockScope {

// The names one walk of the keyspace returned, kept as a Bloom filter: whether a key may have been among them, or
// certainly was not. A false "may" costs one read that finds nothing; a wrong "not" cannot happen. A fixed 4 MiB
// whatever the keyspace: about one false "may" in a thousand at a million keys, one in five at ten million.
class WalkedKeys
{
public:
    void clear();
    void insert(const QByteArray &key);
    bool mayContain(const QByteArray &key) const;

private:
    std::vector<quint64> m_words; // empty until the first insert
};

} // namespace LockScope
