# The two commands of the README, and the staff's other jobs.
#   make grade   grade the bundled example submissions, print the score table
#   make test    the project's whole test suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
OUT    ?= build/grades
export OMP_NUM_THREADS := 1

.PHONY: grade test test-graded bench bench-grade handout gradescope gpu-check clean

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -r requirements.txt
	touch $@

# graded from a copy with the examples' links (to reference/ and assignment/) resolved: the grader
# follows no link inside a submission, since it reads as root
grade: $(VENV)/.installed
	rm -rf build/examples && mkdir -p build && cp -RL examples/submissions build/examples
	$(PY) -m grader grade build/examples --out $(OUT) -j 2

test: $(VENV)/.installed
	$(PY) -m pytest selftest -n 2 --dist loadfile --no-loadscope-reorder -p no:cacheprovider -q --assert=rewrite

# the graded suite against the reference, in one process (what `pytest -x` is for students)
test-graded: $(VENV)/.installed
	$(PY) -m pytest tests --impl reference -q

bench: $(VENV)/.installed
	$(PY) benchmarks/graded_suite.py

bench-grade: $(VENV)/.installed
	$(PY) benchmarks/batch_grading.py

handout: $(VENV)/.installed
	$(PY) -m grader handout --out build/handout

gradescope: $(VENV)/.installed
	$(PY) scripts/make_gradescope_zip.py --out build/autograder.zip

gpu-check: $(VENV)/.installed
	$(PY) scripts/gpu_check.py

clean:
	rm -rf build .hypothesis .pytest_cache
