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

// A LockFilter ready to match records: its glob compiled once.
class LockFilterMatch
{
public:
    void set(const LockFilter &filter);
    const LockFilter &filter() const { return m_filter; }
    bool accepts(const LockRecord &record) const;

private:
    LockFilter m_filter;
    QByteArray m_glob; // '*' and '?' globs: matched on the name's bytes, without a copy per row
    QRegularExpression m_regex; // globs with [sets] or escapes
};

} // namespace LockScope
