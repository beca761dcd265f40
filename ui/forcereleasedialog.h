#pragma once

#include "ops/inspect.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace LockScope {

class HolderWatch;

// The confirmation before deleting someone else's lock: exactly what will be deleted (name, kind, every holder
// with its count, TTL) and what it does to the real owner. It shows the lock as Ops::inspect read it from Redis when
// the person asked (as lockscope-cli's prompt does), not the monitor's last snapshot; what is shown becomes the guard:
// if the holders change before the click lands, nothing is deleted. seen: the monitor's view of it, for what only the
// monitor knows (the listeners on its channel, how confident its classification is); nullptr when it has none.
// watch: whether each holder is alive, said with its evidence and what releasing it means, before the person
// confirms (as lockscope-cli's prompt does); nullptr: not said.
class ForceReleaseDialog : public QDialog
{
    Q_OBJECT
public:
    ForceReleaseDialog(const LockNow &now, const LockInfo *seen, const HolderWatch *watch, QWidget *parent = nullptr);

    QList<QByteArray> shownHolders() const { return m_holders; }
    // The holders with their counts, as shown: the audit record's holders_before.
    QList<LockHolder> shownHolderCounts() const { return m_holderCounts; }
    QPushButton *confirmButton() const { return m_confirm; }
    // A production server: the lock's name must be typed (as the table shows it) before the button confirms.
    void setProduction(bool production);
    QLineEdit *nameField() const { return m_name; }
    QLineEdit *reasonField() const { return m_reason; }
    QString reason() const;
    // Whether the confirmation stands: not on production, or the name typed is the lock's.
    bool confirmed() const;
    QString text() const { return m_text; }
    // Whom the release wakes, as last read: the listeners on its layout's release channel (-1: not read), and that
    // channel (empty: the layout has none, its library's own wake-up is used). A lock whose waiters queue: the queue's
    // length, and its head's own channel.
    int shownWaiters() const { return m_waiters; }
    QByteArray wakeChannel() const { return m_channel; }
    QString wakeText() const;

private:
    static QString livenessHtml(const LockNow &now, const HolderWatch &watch);

    QList<QByteArray> m_holders;
    QList<LockHolder> m_holderCounts;
    void updateConfirm();

    QPushButton *m_confirm;
    QLineEdit *m_reason;
    QLabel *m_nameLabel;
    QLineEdit *m_name;
    QString m_shownName; // the lock's name as the table shows it: what production needs typed
    bool m_production = false;
    QString m_text;
    int m_waiters = -1;
    QByteArray m_channel;
    QByteArray m_queueHead; // a queued lock's first waiter, whose own channel is woken
};

} // namespace LockScope
