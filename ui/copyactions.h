#pragma once

#include <QObject>

#include <functional>

class QAction;

namespace LockScope {

class LockMonitor;
class LocksPane;

// The table's "Copy" entries for the lock the person chose: its name as list and show print it, its holders, and the
// lockscope-cli command that shows the same lock (for a ticket, or a terminal on another machine).
class CopyActions : public QObject
{
    Q_OBJECT
public:
    // displayUrl: the connection as shown in the header (never with a password).
    CopyActions(LocksPane *locks, LockMonitor *monitor, std::function<QString()> displayUrl, QObject *parent);

    QList<QAction *> actions() const;
    // What each entry puts on the clipboard, for the lock named name; empty when there is nothing to copy.
    QString nameText(const QByteArray &name) const;
    QString ownersText(const QByteArray &name) const;
    QString commandText(const QByteArray &name) const;

private:
    void updateEnabled();

    LocksPane *m_locks;
    LockMonitor *m_monitor;
    std::function<QString()> m_displayUrl;
    QAction *m_name;
    QAction *m_owners;
    QAction *m_command;
};

// A word as a POSIX shell reads it back unchanged: in single quotes, each quote written as '\''.
QString shellQuoted(const QString &word);

} // namespace LockScope
