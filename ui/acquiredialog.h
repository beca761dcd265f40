#pragma once

#include "kinds/locktypes.h"

#include <QDialog>

#include <functional>

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
    // What Redis holds under a name, as far as the console knows: its layout (null: no lock known there) and a
    // warning about it (a lock only its shape vouches for), empty when there is none.
    struct Known
    {
        const LockLayout *layout = nullptr;
        QString notice;
    };
    using Lookup = std::function<Known(const QByteArray &name)>;
    // Each name in the box, typed or set, is looked up afresh (issue 47: with the read-write lock catalog selected, a
    // typed orders:300 was taken as a read lock). A lock known under it sets the kind to its layout's, said under the
    // kind box so that the kind never changes unseen; an unknown name gets the default kind unless the person chose
    // one; the notice is the name's own. Looked up at once for the name in the box now.
    void setLookup(Lookup lookup);
    QLabel *kindNote() const { return m_kindNote; }

    QLineEdit *nameEdit() const { return m_name; }
    QComboBox *kindBox() const { return m_kind; }
    QCheckBox *watchdogBox() const { return m_watchdog; }
    QSpinBox *leaseBox() const { return m_lease; }
    // The watchdog's lease for this hold (renewed every third of it), as lockscope-cli's --watchdog-timeout.
    QSpinBox *watchdogLeaseBox() const { return m_watchdogLease; }
    // Its starting value: the console's own watchdog timeout.
    void setWatchdogTimeout(qint64 ms);
    QSpinBox *waitBox() const { return m_wait; }
    // A line above the buttons about the lock the dialog was opened on (a low-confidence lock); empty hides it.
    void setNotice(const QString &text);
    QLabel *noticeLabel() const { return m_notice; }

private:
    void nameChanged();
    // Chooses the layout's first kind: the one a lock of that layout is taken as.
    void setLayout(const LockLayout &layout, const QByteArray &name);

    Lookup m_lookup;
    bool m_kindChosen = false; // the person picked the kind in the box: an unknown name keeps it
    QLineEdit *m_name;
    QComboBox *m_kind;
    QCheckBox *m_watchdog;
    QSpinBox *m_lease;
    QSpinBox *m_watchdogLease;
    QSpinBox *m_wait;
    QLabel *m_notice;
    QLabel *m_kindNote;
};

} // namespace LockScope
