"""The proof harness of formal/: every goal of every operator's Why3 file tried with Z3 and cvc5.

    python -m formal.harness [--only clip,max] [--replay | --verify] [--status build/formal-status.json]

Modules, one concern each:

``tools``      the tools (why3, Z3, cvc5), their versions, the project-local Why3 configuration
``sources``    the operators' files, their modules, declarations and clones, read from the text
``tracing``    the rule ids a goal names, checked against the catalogue
``kinds``      the kind of a goal (property, instance, refinement, library)
``why3``       one ``why3 prove`` run and its answers
``goals``      the tasks why3 reports, grouped into goals with a status per prover
``checks``     the harness's checks of itself: deliberate errors (mutants) and vacuity
``examples``   the pages' examples and special-values cells as Why3 modules (holds and refuted goals)
``example_run`` the pages' examples run through Why3
``needs``      which provers a goal needs (both for an IEEE instance's, one elsewhere): the one rule
``allowed``    the goals one prover may leave unproved, each with its reason (formal/<op>.excused.toml)
``cache``      results per operator in formal/proofs/<op>.json, reused while their inputs are unchanged
``run``        one operator, start to end
``status``     build/formal-status.json (read by the site) and the printed report
``verify``     the committed records checked against a fresh proof (``--verify``)
``__main__``   the command line
"""
