#pragma once

#include "locktypes.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace LockScope {

// What the console should take: name, kind, the watchdog or a fixed lease, and how long to wait.
class AcquireDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AcquireDialog(QWidget *parent = nullptr);

    void setName(const QByteArray &name);
    AcquireRequest request() const;

    QLineEdit *nameEdit() const { return m_name; }
    QComboBox *kindBox() const { return m_kind; }
    QCheckBox *watchdogBox() const { return m_watchdog; }
    QSpinBox *leaseBox() const { return m_lease; }
    QSpinBox *waitBox() const { return m_wait; }

private:
    QLineEdit *m_name;
    QComboBox *m_kind;
    QCheckBox *m_watchdog;
    QSpinBox *m_lease;
    QSpinBox *m_wait;
};

} // namespace LockScope
