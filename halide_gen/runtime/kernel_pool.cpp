// The kernels' thread pool (kernel_pool.h): one job at a time, a block of tasks per participant,
// idle participants taking unstarted tasks from the other blocks, bounded spinning before sleep.
#include "halide_gen/runtime/kernel_pool.h"

#include <omp.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

namespace {

using Clock = std::chrono::steady_clock;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

// Spins until `done()` or kSpinMicroseconds have passed; whether it became true.
template <typename Done>
bool spin_until(Done done) {
    const auto until = Clock::now() + std::chrono::microseconds(kSpinMicroseconds);
    for (int i = 0;; ++i) {
        if (done()) return true;
        cpu_relax();
        if ((i & 63) == 63 && Clock::now() >= until) return done();
    }
}

// The participant index of this thread in the running job; -1 when it runs none.
thread_local int participant = -1;

// One participant's block of the job's tasks: [next, end), `next` claimed by fetch_add.
struct alignas(64) Block {
    std::atomic<int> next{0};
    int end = 0;
};

class Pool {
public:
    int threads() const { return threads_; }

    void resize(int threads) {
        const std::lock_guard<std::mutex> submit(submit_);
        if (threads == threads_) return;
        stop_workers();
        threads_ = threads;
        blocks_ = std::vector<Block>(std::size_t(threads));
    }

    int run(void *uc, halide_task_t task, int min, int size, uint8_t *closure) {
        std::unique_lock<std::mutex> submit(submit_, std::try_to_lock);
        if (!submit.owns_lock() || threads_ == 1) return run_inline(uc, task, min, size, closure);
        start_workers();
        const int parts = std::min(threads_, size);
        {
            const std::lock_guard<std::mutex> lock(m_);
            uc_ = uc;
            task_ = task;
            closure_ = closure;
            min_ = min;
            parts_ = parts;
            for (int b = 0; b < parts; ++b) {
                blocks_[b].next.store(int(int64_t(size) * b / parts), std::memory_order_relaxed);
                blocks_[b].end = int(int64_t(size) * (b + 1) / parts);
            }
            remaining_.store(size, std::memory_order_relaxed);
            result_.store(0, std::memory_order_relaxed);
            active_ = true;
            generation_.fetch_add(1, std::memory_order_release);
        }
        work_.notify_all();
        run_blocks(0);
        if (!spin_until([&] { return remaining_.load(std::memory_order_acquire) == 0; })) {
            std::unique_lock<std::mutex> lock(m_);
            finished_.wait(lock, [&] { return remaining_.load(std::memory_order_acquire) == 0; });
        }
        // Every task is done; the job's state may be reused once no worker is still inside it.
        std::unique_lock<std::mutex> lock(m_);
        active_ = false;
        idle_.wait(lock, [&] { return inside_ == 0; });
        return result_.load(std::memory_order_relaxed);
    }

private:
    static int run_inline(void *uc, halide_task_t task, int min, int size, uint8_t *closure) {
        int result = 0;
        for (int i = min; i < min + size; ++i) {
            if (const int rc = task(uc, i, closure); rc != 0 && result == 0) result = rc;
        }
        return result;
    }

    // Participant p's own block first, then whatever is left of the others.
    void run_blocks(int p) {
        const int saved = participant;
        participant = p;
        for (int k = 0; k < parts_; ++k) {
            Block &b = blocks_[(p + k) % parts_];
            for (;;) {
                const int t = b.next.fetch_add(1, std::memory_order_relaxed);
                if (t >= b.end) break;
                if (const int rc = task_(uc_, min_ + t, closure_); rc != 0) {
                    int none = 0;
                    result_.compare_exchange_strong(none, rc, std::memory_order_relaxed);
                }
                if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                    const std::lock_guard<std::mutex> lock(m_);   // pairs with the caller's wait
                    finished_.notify_one();
                }
            }
        }
        participant = saved;
    }

    // `seen`: the last job the worker has no part in (the generation when it was started).
    void worker(int index, uint64_t seen) {
        for (;;) {
            if (!spin_until([&] { return generation_.load(std::memory_order_acquire) != seen || stopping_.load(); })) {
                std::unique_lock<std::mutex> lock(m_);
                work_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen || stopping_.load(); });
            }
            std::unique_lock<std::mutex> lock(m_);
            if (stopping_.load()) return;
            seen = generation_.load(std::memory_order_acquire);
            if (!active_ || index >= parts_) continue;
            ++inside_;
            lock.unlock();
            run_blocks(index);
            lock.lock();
            if (--inside_ == 0) idle_.notify_one();
        }
    }

    void start_workers() {
        if (int(workers_.size()) == threads_ - 1) return;
        stopping_ = false;
        const uint64_t now = generation_.load(std::memory_order_acquire);
        for (int i = 1; i < threads_; ++i) workers_.emplace_back([this, i, now] { worker(i, now); });
    }

    void stop_workers() {
        {
            const std::lock_guard<std::mutex> lock(m_);
            stopping_ = true;
        }
        work_.notify_all();
        for (std::thread &t : workers_) t.join();
        workers_.clear();
        stopping_ = false;
    }

    int threads_ = 1;
    std::vector<std::thread> workers_;
    std::mutex submit_;   // one job at a time; a second caller runs its tasks itself

    // The job, written under m_ while no participant is inside it.
    std::mutex m_;
    std::condition_variable work_, finished_, idle_;
    std::atomic<uint64_t> generation_{0};
    std::atomic<bool> stopping_{false};
    bool active_ = false;
    int inside_ = 0;   // workers running the current job
    void *uc_ = nullptr;
    halide_task_t task_ = nullptr;
    uint8_t *closure_ = nullptr;
    int min_ = 0, parts_ = 0;
    std::vector<Block> blocks_;
    std::atomic<int> remaining_{0}, result_{0};
};

// Made on first use and never destroyed: its workers may still sleep in it while the process exits.
Pool &pool() {
    static Pool *p = [] {
        auto *made = new Pool();
        made->resize(host_cores());
        return made;
    }();
    return *p;
}

}  // namespace

int kernel_do_par_for(void *user_context, halide_task_t task, int min, int size, uint8_t *closure) {
    if (size <= 0) return 0;
    if (size == 1 || participant >= 0) {   // one task, or a loop nested in a task
        int result = 0;
        for (int i = min; i < min + size; ++i) {
            if (const int rc = task(user_context, i, closure); rc != 0 && result == 0) result = rc;
        }
        return result;
    }
    return pool().run(user_context, task, min, size, closure);
}

void set_kernel_threads(int threads) {
    if (threads < 1) throw Error(fmt::format("kernel threads: {} is not a thread count (must be >= 1)", threads));
    pool().resize(threads);
    omp_set_num_threads(threads);
}

int kernel_threads() { return pool().threads(); }

int host_cores() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    const unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? int(n) : 1;
}

int kernel_thread_index() { return participant < 0 ? 0 : participant; }

}  // namespace halogen
