#pragma once

#include "kinds/locktypes.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace LockScope {

// What the console should take: name, kind (Redisson's or a string lock), the watchdog or a fixed lease, and how
// long to wait.
class AcquireDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AcquireDialog(QWidget *parent = nullptr);

    void setName(const QByteArray &name);
    // A Redisson lock (LockClient) unless isStringLock(); then name, leaseMs and waitMs apply, and kind does not.
    AcquireRequest request() const;
    // The classic single-key lock (SET NX PX), which StringLockClient takes rather than LockClient.
    bool isStringLock() const;
    void setStringLock(bool on);

    QLineEdit *nameEdit() const { return m_name; }
    QComboBox *kindBox() const { return m_kind; }
    QCheckBox *watchdogBox() const { return m_watchdog; }
    QSpinBox *leaseBox() const { return m_lease; }
    QSpinBox *waitBox() const { return m_wait; }
    // A line above the buttons about the lock the dialog was opened on (a low-confidence lock); empty hides it.
    void setNotice(const QString &text);
    QLabel *noticeLabel() const { return m_notice; }

private:
    QLineEdit *m_name;
    QComboBox *m_kind;
    QCheckBox *m_watchdog;
    QSpinBox *m_lease;
    QSpinBox *m_wait;
    QLabel *m_notice;
};

} // namespace LockScope
