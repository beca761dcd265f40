#pragma once

#include "kinds/locktypes.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace LockScope {

class LockLayout;

// What the console should take: name, kind (from the layouts' registry), the watchdog or a fixed lease, and how
// long to wait.
class AcquireDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AcquireDialog(QWidget *parent = nullptr);

    void setName(const QByteArray &name);
    AcquireRequest request() const;
    // Whether the kind chosen is one whose holder is a bare token (the classic SET NX PX lock).
    bool isStringLock() const;
    // Chooses the layout's first kind: the one a lock of that layout is taken as. Said under the kind box, so that
    // the kind never changes unseen: it comes from the lock name holds now (the selected one).
    void setLayout(const LockLayout &layout, const QByteArray &name = {});
    QLabel *kindNote() const { return m_kindNote; }

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
    QLabel *m_kindNote;
};

} // namespace LockScope
