#pragma once

#include <QAbstractTableModel>
#include <QByteArray>
#include <QList>
#include <QStringList>
#include <QVariant>

namespace LockScope {

// One row of a ranked view: a key that stays the row's identity across refreshes, the lock it is about (for
// navigation and actions), and its cells: numbers as numbers, text as text, an invalid QVariant for "not known".
struct KeyedRow
{
    QByteArray key;
    QByteArray lock; // empty: the row is not about one lock (a client)
    QByteArray client; // the client id a row is about, when it is
    QVariantList cells;
    QString toolTip;
    QByteArray action; // what fixes it (StuckFinding::fixId), when the view proposes one
};

// A table of rows replaced wholesale by each refresh, told apart by key: rows that stay keep their identity (the
// selection and persistent indexes follow them), rows that go are removed, new ones inserted, and a new order is
// one layout change. What the Hot, Stuck and Clients views show, and what they export.
class KeyedTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Roles {
        KeyRole = Qt::UserRole + 1, // QByteArray
        LockRole, // QByteArray: the lock the row is about
        ClientRole, // QByteArray
        ActionRole, // QByteArray: the proposed fix's id
        SortRole, // the cell's value (numbers sort as numbers)
    };
    // ids: one per column, for the JSON export (snake_case); headers: what people read.
    KeyedTableModel(QList<QByteArray> ids, QStringList headers, QObject *parent = nullptr);

    void setRows(QList<KeyedRow> rows);
    const QList<KeyedRow> &rows() const { return m_rows; }
    int rowOf(const QByteArray &key) const;
    int columnOf(const QByteArray &id) const { return int(m_ids.indexOf(id)); } // -1: no such column
    // The headers can change language: the ids stay.
    void setHeaders(const QStringList &headers);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // What the view shows, rows in order: CSV (RFC 4180, a header line of the column headers) or a JSON array of
    // objects keyed by column id, with null where a figure is not known.
    QByteArray toCsv() const;
    QByteArray toJson() const;

private:
    QList<QByteArray> m_ids;
    QStringList m_headers;
    QList<KeyedRow> m_rows;
};

} // namespace LockScope
