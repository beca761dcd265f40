#pragma once

#include <QByteArray>
#include <QRegularExpression>
#include <QString>

namespace LockScope {

struct LockRecord;

// What the person narrowed the lock table to: a name glob, one kind, one client id (one JVM's whole footprint).
struct LockFilter
{
    QString nameGlob; // empty: every name
    QString kind; // LockTableModel::KindRole value; empty: every kind
    QString clientId; // empty: every client

    bool isEmpty() const { return nameGlob.isEmpty() && kind.isEmpty() && clientId.isEmpty(); }
    // Whether a lock's data (not its name, which never changes) decides: then an update may show or hide a row.
    bool dependsOnData() const { return !kind.isEmpty() || !clientId.isEmpty(); }
};

// A LockFilter ready to match records: its glob compiled once. A pinned name passes whatever the filter says: the
// lock a person chose stays in view while a filter would hide it, so that what the actions act on is always the row
// shown selected (issue 47).
class LockFilterMatch
{
public:
    void set(const LockFilter &filter); // the pinned name stays
    const LockFilter &filter() const { return m_filter; }
    void setPinned(const QByteArray &name) { m_pinned = name; } // empty: none
    const QByteArray &pinned() const { return m_pinned; }
    bool accepts(const LockRecord &record) const;
    // What the filter alone says, the pin aside.
    bool matches(const LockRecord &record) const;

private:
    LockFilter m_filter;
    QByteArray m_pinned;
    QByteArray m_glob; // '*' and '?' globs: matched on the name's bytes, without a copy per row
    QRegularExpression m_regex; // globs with [sets] or escapes
};

} // namespace LockScope
