// The flop count of one SAAS log-posterior gradient (model/likelihood_work.h): its closed forms
// against a hand count at n = 3, D = 2 and against element-by-element enumerations of what each
// phase computes, at sizes on both sides of the kernel's recursive blocks (50 points).

#include <string>

#include "model/likelihood_work.h"
#include "test_main.h"
#include "test_support.h"

namespace test_likelihood_work {

namespace {

// Every phase by its own formula, one matrix entry at a time (the rules of likelihood_work.h).
struct Enumerated {
    double gram = 0, matern = 0, cholesky = 0, cholesky_sqrt = 0, solves = 0, trtri = 0, lauum = 0, weights = 0,
           symm = 0;
};

Enumerated enumerate(long n, long dimension) {
    Enumerated e;
    for (long i = 0; i < n; ++i)
        for (long j = 0; j <= i; ++j) {
            e.gram += 2.0 * static_cast<double>(dimension);  // G_ij = Σ_d S_id S_jd
            if (i > j) {
                e.matern += 12.0;
                e.weights += 7.0;  // 5, and the weight added to two row sums
                e.cholesky += 2.0 * static_cast<double>(j) + 1.0;  // j products and subtractions, a division
                e.trtri += 2.0 * static_cast<double>(i - j);  // i − j products, i − j − 1 additions, × −1/L_jj
            } else {
                e.matern += 2.0;  // σ² + noise, and the column's scalar σ²·(−5/6)
                e.weights += 5.0;  // ½(α_i² − K⁻¹_ii) summed, and α_i summed
                e.cholesky += 2.0 * static_cast<double>(j);
                e.cholesky_sqrt += 1.0;
                e.trtri += 1.0;  // 1 / L_jj
            }
            e.lauum += 2.0 * static_cast<double>(n - i) - 1.0;  // n − i products, n − i − 1 additions
        }
    // Forward and back substitution: row i has i products, i subtractions and a division; then
    // y − m, the dot product and its scaling (2n) and the sum of the log pivots.
    for (long i = 0; i < n; ++i) e.solves += 2.0 * (2.0 * static_cast<double>(i) + 1.0);
    // w x over the whole symmetric w (n multiply-adds per entry of the n×D result), then per entry
    // x (x r − (w x)) summed (4), and the product by ρ_d.
    const double d = static_cast<double>(dimension);
    for (long i = 0; i < n; ++i) e.symm += 2.0 * static_cast<double>(n) * d + 4.0 * d;
    e.symm += d;
    e.solves += 4.0 * static_cast<double>(n);
    return e;
}

double phase_flops(const sebo::LikelihoodWork& w, const std::string& phase) {
    const sebo::PhaseWork* p = w.find(phase);
    if (!p) qFatal("no phase '%s'", phase.c_str());
    return p->flops;
}

}  // namespace

class TestLikelihoodWork : public QObject {
    Q_OBJECT

private slots:
    // n = 3, D = 2 (3 pairs), counted by hand:
    //   inputs 3·2 = 6; gram 6 entries × 4 = 24; Matérn 3 × 12 + 3 + 3 = 42;
    //   Cholesky L10, L20 1 each, L11 2, L21 3, L22 4 = 11 (3 sqrt); solves 2 × (1 + 3 + 5) + 12 = 30;
    //   L⁻¹: 3 divisions, (1,0) 2, (2,1) 2, (2,0) 4 = 11; L⁻ᵀL⁻¹: row 0 1 × 5, row 1 2 × 3, row 2 3 × 1 = 14;
    //   weights 3 × 7 + 3 × 5 = 36; symm 3 × 3 × 2 × 2 + 3 × 2 × 4 + 2 = 62; prior 16 × 2 + 60 = 92.
    //   Total 328.
    void hand_count_at_three_points() {
        const sebo::LikelihoodWork w = sebo::saas_gradient_work(3, 2);
        QCOMPARE(phase_flops(w, "kernel inputs"), 6.0);
        QCOMPARE(phase_flops(w, "gram (syrk)"), 24.0);
        QCOMPARE(phase_flops(w, "matern elementwise"), 42.0);
        QCOMPARE(phase_flops(w, "cholesky (potrf)"), 11.0);
        QCOMPARE(phase_flops(w, "value (2 solves)"), 30.0);
        QCOMPARE(phase_flops(w, "inverse factor (trtri)"), 11.0);
        QCOMPARE(phase_flops(w, "K inverse (lauum)"), 14.0);
        QCOMPARE(phase_flops(w, "gradient weights"), 36.0);
        QCOMPARE(phase_flops(w, "lengthscale gradient (symm)"), 62.0);
        QCOMPARE(phase_flops(w, "SAAS prior"), 92.0);
        QCOMPARE(w.flops(), 328.0);
        // exp: ρ (2), σ², noise; 3 pairs; λ twice per dimension and 3 scalars. sqrt: √ρ (2), 3 pairs,
        // 3 pivots. log: 3 pivots; log and log1p per dimension and 10 scalars.
        const sebo::PhaseWork* matern = w.find("matern elementwise");
        QCOMPARE(matern->exp, 3.0);
        QCOMPARE(matern->sqrt, 3.0);
        QCOMPARE(w.transcendentals(), (4.0 + 3.0 + 7.0) + (2.0 + 3.0 + 3.0) + (3.0 + 14.0));
    }

    void closed_forms_match_enumeration_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("dimension");
        QTest::newRow("n=1 D=1") << 1 << 1;
        QTest::newRow("n=2 D=5") << 2 << 5;
        QTest::newRow("n=7 D=3") << 7 << 3;
        QTest::newRow("n=64 D=12") << 64 << 12;  // above 50: the kernel's recursive blocks
        QTest::newRow("n=100 D=50") << 100 << 50;
        QTest::newRow("n=131 D=100") << 131 << 100;
    }
    void closed_forms_match_enumeration() {
        QFETCH(int, n);
        QFETCH(int, dimension);
        const sebo::LikelihoodWork w = sebo::saas_gradient_work(n, dimension);
        const Enumerated e = enumerate(n, dimension);
        QCOMPARE(phase_flops(w, "gram (syrk)"), e.gram);
        QCOMPARE(phase_flops(w, "matern elementwise"), e.matern);
        QCOMPARE(phase_flops(w, "cholesky (potrf)"), e.cholesky);
        QCOMPARE(w.find("cholesky (potrf)")->sqrt, e.cholesky_sqrt);
        QCOMPARE(phase_flops(w, "value (2 solves)"), e.solves);
        QCOMPARE(phase_flops(w, "inverse factor (trtri)"), e.trtri);
        QCOMPARE(phase_flops(w, "K inverse (lauum)"), e.lauum);
        QCOMPARE(phase_flops(w, "gradient weights"), e.weights);
        QCOMPARE(phase_flops(w, "lengthscale gradient (symm)"), e.symm);
    }

    // The figure docs/performance.md quotes: 2.66 Mflop at n = 100, D = 50, and every phase named once.
    void figure_at_the_documented_size() {
        const sebo::LikelihoodWork w = sebo::saas_gradient_work(100, 50);
        QCOMPARE(w.flops(), 2656060.0);
        QCOMPARE(w.phases.size(), std::size_t{10});
        QVERIFY(w.find("no such phase") == nullptr);
    }
};

SEBO_TEST_MAIN(TestLikelihoodWork)
}  // namespace test_likelihood_work
#include "test_likelihood_work.moc"
