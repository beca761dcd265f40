#include "soaktally.h"

#include <QDir>
#include <QFile>
#include <QSet>

namespace LockScope::Soak {

void Tally::addGenerated(const DemoEvent &e)
{
    const QByteArray key = e.name + ' ' + e.owner;
    Counts &c = counts[key];
    const bool ends = (e.kind == DemoEvent::Kind::Released && e.count == 0) || e.kind == DemoEvent::Kind::Lost;
    if (e.kind == DemoEvent::Kind::Acquired) {
        ++c.acquired;
        open.insert(key, e.time);
    } else if (ends) {
        ++c.ended;
        const auto it = open.constFind(key);
        if (it != open.cend() && it->msecsTo(e.time) >= kObservableMs) {
            ++c.acquiredObservable;
            ++c.endedObservable;
        }
        open.remove(key);
    }
}

void Tally::closeOpenHolds()
{
    for (auto it = open.cbegin(); it != open.cend(); ++it)
        ++counts[it.key()].acquiredObservable;
    open.clear();
}

void Tally::addSeen(const LockEvent &e)
{
    const QByteArray key = e.name + ' ' + e.owner;
    switch (e.type) {
    case LockEvent::Type::Acquired:
        ++counts[key].acquired;
        break;
    case LockEvent::Type::Released:
    case LockEvent::Type::Expired:
    case LockEvent::Type::ForceReleased:
        if (e.count == 0)
            ++counts[key].ended;
        break;
    default:
        break;
    }
}

qint64 Tally::total(qint64 Counts::*field) const
{
    qint64 sum = 0;
    for (const Counts &c : counts)
        sum += c.*field;
    return sum;
}

QJsonObject Tally::toJson() const
{
    return { { QStringLiteral("acquired"), total(&Counts::acquired) },
        { QStringLiteral("ended"), total(&Counts::ended) },
        { QStringLiteral("acquired_observable"), total(&Counts::acquiredObservable) },
        { QStringLiteral("ended_observable"), total(&Counts::endedObservable) } };
}

QList<QByteArray> mismatchedKeys(const Tally &generated, const Tally &seen)
{
    QSet<QByteArray> keys;
    for (const Tally *t : { &generated, &seen })
        for (auto it = t->counts.cbegin(); it != t->counts.cend(); ++it)
            keys.insert(it.key());
    QList<QByteArray> out;
    for (const QByteArray &key : keys) {
        const Tally::Counts g = generated.counts.value(key), s = seen.counts.value(key);
        const bool acquiredOk = s.acquired >= g.acquiredObservable && s.acquired <= g.acquired;
        const bool endedOk = s.ended >= g.endedObservable && s.ended <= g.ended;
        if (!acquiredOk || !endedOk)
            out << key;
    }
    return out;
}

QStringList differences(const Tally &generated, const Tally &seen)
{
    QStringList lines;
    for (const QByteArray &key : mismatchedKeys(generated, seen)) {
        const Tally::Counts g = generated.counts.value(key), s = seen.counts.value(key);
        lines << QStringLiteral("%1: acquired %2 (%3 observable), seen %4; ended %5 (%6 observable), seen %7")
                     .arg(QString::fromUtf8(key))
                     .arg(g.acquired)
                     .arg(g.acquiredObservable)
                     .arg(s.acquired)
                     .arg(g.ended)
                     .arg(g.endedObservable)
                     .arg(s.ended);
    }
    return lines;
}

void Story::add(const QByteArray &key, const QString &line)
{
    QStringList &lines = m_lines[key];
    if (lines.size() >= kLinesPerKey)
        lines.removeFirst();
    lines << line;
}

QStringList Story::of(const QByteArray &key) const
{
    return m_lines.value(key);
}

qint64 residentKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    return -1;
}

int openFds()
{
    return int(QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size());
}

} // namespace LockScope::Soak
