"""The tally every check adds to: how many checks ran and which failed."""


class Report:
    def __init__(self):
        self.failures = []
        self.checks = 0

    def expect(self, condition, message):
        self.checks += 1
        if not condition:
            self.failures.append(message)

    def extend(self, problems):
        self.checks += 1
        self.failures.extend(problems)
