/* keeps the support library non-empty */
typedef int evprof_test_support_unused;
