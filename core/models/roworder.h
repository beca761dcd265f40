#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>

#include <array>
#include <deque>

namespace LockScope {

class LockTableModel;

// What a row sorts by in one column, kept with the row: a sort of a million rows compares tens of millions of times,
// and asking the table for a QVariant on each side of each comparison is what made a click on a header freeze the
// window (QSortFilterProxyModel's lessThan).
struct SortKey
{
    enum Kind : quint8 {
        Missing, // no value (an ended row's counts and times): after every value, as QVariant() sorted
        Number, // value
        Text, // value indexes the order's texts
        Name, // the row's own name, compared byte by byte
    };
    qint64 value = 0;
    Kind kind = Missing;
};

// Texts that rows sort by (a kind, a holder, a watchdog guess), each kept once while few repeat: a million rows of
// one kind hold one string. Past kMaxShared distinct texts (holders, tokens) a text is kept as it comes, without the
// look-up, which would only grow: equal texts under two indexes still compare equal.
class TextPool
{
public:
    quint32 add(const QString &text);
    const QString &at(quint32 index) const { return m_texts[index]; }
    qsizetype size() const { return qsizetype(m_texts.size()); }

private:
    static constexpr int kMaxShared = 1 << 16;
    static constexpr size_t kShards = 16;
    // A deque, and a hash in shards: neither moves everything at once as it grows (a stall at a million rows).
    std::deque<QString> m_texts;
    std::array<QHash<QString, quint32>, kShards> m_shared;
    int m_sharedCount = 0;
};

// The order of the lock table as a header click asks for it: by one column's LockTableModel::SortRole values, as
// LockFilterProxy's lessThan compared them (QSortFilterProxyModel::lessThan, names byte by byte), ties in the order
// the rows were met (the table's, since a stable sort kept it), descending the values reversed and the ties not. No
// column: the table's order (descending: reversed).
class RowOrder
{
public:
    RowOrder() = default;
    RowOrder(int column, bool descending);

    int column() const { return m_column; }
    bool isDescending() const { return m_descending; }
    bool isTableOrder() const { return m_column < 0; }
    bool operator==(const RowOrder &other) const
    {
        return m_column == other.m_column && m_descending == other.m_descending;
    }
    bool operator!=(const RowOrder &other) const { return !(*this == other); }

    // The key of a table row in this order (its texts kept here).
    SortKey keyOf(const LockTableModel &table, int row);
    bool sameKey(const SortKey &a, const SortKey &b) const;
    // Whether row a (its key, name and sequence number: the order it was met in) goes before row b.
    bool before(const SortKey &a, const QByteArray &nameA, quint64 seqA, const SortKey &b, const QByteArray &nameB,
        quint64 seqB) const
    {
        if (m_column >= 0) {
            const int c = compare(a, nameA, b, nameB);
            if (c != 0)
                return m_descending ? c > 0 : c < 0;
            return seqA < seqB;
        }
        return m_descending ? seqA > seqB : seqA < seqB;
    }
    // How many texts it keeps: a live order adds one for each row whose text changed.
    qsizetype textCount() const { return m_texts.size(); }

private:
    // The keys alone, ascending: negative, 0 or positive.
    int compare(const SortKey &a, const QByteArray &nameA, const SortKey &b, const QByteArray &nameB) const;

    int m_column = -1;
    bool m_descending = false;
    TextPool m_texts;
};

} // namespace LockScope
