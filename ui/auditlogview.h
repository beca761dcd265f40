#pragma once

#include <QDialog>

class QLabel;
class QTableWidget;

namespace LockScope {

// View > Audit log: the newest records of the audit log this console and lockscope-cli write (the file, and a row per
// action: when, what, which lock, from which front-end, how it ended), read again on Refresh. It only reads.
class AuditLogView : public QDialog
{
    Q_OBJECT
public:
    explicit AuditLogView(QWidget *parent = nullptr);

    // Reads the file again; the newest record first, at most limit of them.
    void reload(int limit = 500);
    QTableWidget *table() const { return m_table; }

private:
    QLabel *m_path;
    QTableWidget *m_table;
};

} // namespace LockScope
