#include "kinds/textpool.h"

#include <QSet>

namespace LockScope::TextPool {

namespace {
constexpr qsizetype kMaxEntries = 4096;

template <typename T> T shared(QSet<T> &pool, const T &value)
{
    if (value.isEmpty())
        return value;
    const auto it = pool.constFind(value);
    if (it != pool.cend())
        return *it;
    if (pool.size() >= kMaxEntries)
        pool.clear();
    pool.insert(value);
    return value;
}
} // namespace

QString text(const QString &text)
{
    thread_local QSet<QString> pool;
    return shared(pool, text);
}

QByteArray bytes(const QByteArray &bytes)
{
    thread_local QSet<QByteArray> pool;
    return shared(pool, bytes);
}

QStringList texts(const QStringList &texts)
{
    if (texts.isEmpty())
        return {};
    thread_local QSet<QStringList> pool;
    QStringList pooled;
    pooled.reserve(texts.size());
    for (const QString &t : texts)
        pooled << text(t);
    return shared(pool, pooled);
}

} // namespace LockScope::TextPool
